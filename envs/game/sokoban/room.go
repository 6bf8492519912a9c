package sokoban

// dir is a move direction.
type dir int

const (
	up dir = iota
	down
	left
	right
)

var dirNames = [...]string{"up", "down", "left", "right"}

func (d dir) String() string { return dirNames[d] }

// room is an n×n Sokoban room, row-major. The border is all wall, so a
// step from any inner cell stays on the grid.
type room struct {
	n      int
	wall   []bool
	target []bool
	box    []bool
	player int
}

func (r *room) delta(d dir) int {
	switch d {
	case up:
		return -r.n
	case down:
		return r.n
	case left:
		return -1
	}
	return 1
}

func (r *room) clone() *room {
	return &room{
		n:      r.n,
		wall:   append([]bool(nil), r.wall...),
		target: append([]bool(nil), r.target...),
		box:    append([]bool(nil), r.box...),
		player: r.player,
	}
}

// blocked says why the player cannot move d, or "" when it can.
func (r *room) blocked(d dir) string {
	q := r.player + r.delta(d)
	if r.wall[q] {
		return "a wall is in the way"
	}
	if r.box[q] {
		b := q + r.delta(d)
		if r.wall[b] {
			return "the box would hit a wall"
		}
		if r.box[b] {
			return "the box would hit another box"
		}
	}
	return ""
}

// move plays d, which must not be blocked; it reports whether a box moved.
func (r *room) move(d dir) (pushed bool) {
	q := r.player + r.delta(d)
	if r.box[q] {
		r.box[q] = false
		r.box[q+r.delta(d)] = true
		pushed = true
	}
	r.player = q
	return pushed
}

// onTarget counts the boxes on targets and the boxes.
func (r *room) onTarget() (on, boxes int) {
	for i, b := range r.box {
		if b {
			boxes++
			if r.target[i] {
				on++
			}
		}
	}
	return on, boxes
}

func (r *room) solved() bool {
	on, boxes := r.onTarget()
	return on == boxes
}

// render writes the room in space-separated symbols: '#' wall, '_' floor,
// '.' target, '$' box, '*' box on a target, '@' player, '+' player on a
// target.
func (r *room) render(buf []byte) []byte {
	for i := range r.wall {
		switch {
		case i == 0:
		case i%r.n == 0:
			buf = append(buf, '\n')
		default:
			buf = append(buf, ' ')
		}
		ch := byte('_')
		switch {
		case r.wall[i]:
			ch = '#'
		case i == r.player && r.target[i]:
			ch = '+'
		case i == r.player:
			ch = '@'
		case r.box[i] && r.target[i]:
			ch = '*'
		case r.box[i]:
			ch = '$'
		case r.target[i]:
			ch = '.'
		}
		buf = append(buf, ch)
	}
	return buf
}
