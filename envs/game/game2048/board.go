package game2048

import (
	"math/rand/v2"
	"strconv"
)

// size is the side of the board.
const size = 4

// board holds tile values row-major; 0 is an empty cell.
type board [size * size]int

// dir is a move direction.
type dir int

const (
	left dir = iota
	right
	up
	down
)

var dirNames = [...]string{"left", "right", "up", "down"}

func (d dir) String() string { return dirNames[d] }

// line returns the board indices of line k in the order tiles slide for d:
// the first index is the edge the tiles move towards.
func line(d dir, k int) [size]int {
	var idx [size]int
	for j := range size {
		switch d {
		case left:
			idx[j] = k*size + j
		case right:
			idx[j] = k*size + size - 1 - j
		case up:
			idx[j] = j*size + k
		case down:
			idx[j] = (size-1-j)*size + k
		}
	}
	return idx
}

// slide moves the tiles of v towards index 0, merging equal neighbours
// once each. It returns the largest tile made by a merge (0 if none).
func slide(v *[size]int) (mergedMax int) {
	var out [size]int
	n := 0
	canMerge := false // out[n-1] may still absorb an equal tile
	for _, x := range v {
		if x == 0 {
			continue
		}
		if canMerge && out[n-1] == x {
			out[n-1] = 2 * x
			mergedMax = max(mergedMax, 2*x)
			canMerge = false
			continue
		}
		out[n] = x
		n++
		canMerge = true
	}
	*v = out
	return mergedMax
}

// move applies d to b. It reports whether any tile moved and the largest
// tile made by a merge.
func (b *board) move(d dir) (changed bool, mergedMax int) {
	for k := range size {
		idx := line(d, k)
		var v [size]int
		for j, i := range idx {
			v[j] = b[i]
		}
		mergedMax = max(mergedMax, slide(&v))
		for j, i := range idx {
			if b[i] != v[j] {
				changed = true
			}
			b[i] = v[j]
		}
	}
	return changed, mergedMax
}

// canMove reports whether some move changes the board.
func (b *board) canMove() bool {
	for r := range size {
		for c := range size {
			x := b[r*size+c]
			if x == 0 {
				return true
			}
			if c+1 < size && b[r*size+c+1] == x {
				return true
			}
			if r+1 < size && b[(r+1)*size+c] == x {
				return true
			}
		}
	}
	return false
}

// legal reports whether d changes b.
func (b *board) legal(d dir) bool {
	c := *b
	changed, _ := c.move(d)
	return changed
}

func (b *board) maxTile() int {
	m := 0
	for _, x := range b {
		m = max(m, x)
	}
	return m
}

// spawn puts a 2 (probability 0.9) or a 4 on a random empty cell; it does
// nothing on a full board.
func (b *board) spawn(rng *rand.Rand) {
	var empty [size * size]int
	n := 0
	for i, x := range b {
		if x == 0 {
			empty[n] = i
			n++
		}
	}
	if n == 0 {
		return
	}
	v := 2
	if rng.IntN(10) == 0 {
		v = 4
	}
	b[empty[rng.IntN(n)]] = v
}

// render writes the board as 4 rows of space-separated values, '.' empty.
func (b *board) render(buf []byte) []byte {
	for r := range size {
		if r > 0 {
			buf = append(buf, '\n')
		}
		for c := range size {
			if c > 0 {
				buf = append(buf, ' ')
			}
			if x := b[r*size+c]; x == 0 {
				buf = append(buf, '.')
			} else {
				buf = strconv.AppendInt(buf, int64(x), 10)
			}
		}
	}
	return buf
}
