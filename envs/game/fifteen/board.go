package fifteen

import "math/rand/v2"

// board is an n×n puzzle in row order; 0 is the blank.
type board struct {
	n     int
	cells []int
	blank int // index of the 0 in cells
}

// reset sets b to the n×n goal: 1, 2, …, n²−1 and the blank last.
func (b *board) reset(n int) {
	b.n = n
	if cap(b.cells) < n*n {
		b.cells = make([]int, n*n)
	}
	b.cells = b.cells[:n*n]
	for i := range b.cells {
		b.cells[i] = i + 1
	}
	b.blank = n*n - 1
	b.cells[b.blank] = 0
}

// source returns the index of the tile that slides into the blank in
// direction d, or -1 when there is none.
func (b *board) source(d int) int {
	r, c := b.blank/b.n, b.blank%b.n
	switch d {
	case up: // the tile below moves up
		r++
	case down:
		r--
	case left: // the tile to the right moves left
		c++
	case right:
		c--
	}
	if r < 0 || r >= b.n || c < 0 || c >= b.n {
		return -1
	}
	return r*b.n + c
}

// move slides a tile in direction d; it reports false (and changes
// nothing) when there is no tile to slide.
func (b *board) move(d int) bool {
	s := b.source(d)
	if s < 0 {
		return false
	}
	b.cells[b.blank], b.cells[s] = b.cells[s], 0
	b.blank = s
	return true
}

// inPlace counts the numbered tiles on their goal squares.
func (b *board) inPlace() int {
	k := 0
	for i, v := range b.cells {
		if v == i+1 {
			k++
		}
	}
	return k
}

// solved reports whether b is the goal.
func (b *board) solved() bool { return b.inPlace() == b.n*b.n-1 }

// scramble makes k random moves from the current board, never undoing the
// move just made, and one more for each time the walk would end on the
// goal. The moves go into path (reused), which it returns.
func (b *board) scramble(r *rand.Rand, k int, path []int) []int {
	path = path[:0]
	prev := -1
	var legal [4]int
	for len(path) < k || b.solved() {
		m := 0
		for d := range 4 {
			if b.source(d) >= 0 && (prev < 0 || d != inverse[prev]) {
				legal[m] = d
				m++
			}
		}
		d := legal[r.IntN(m)]
		b.move(d)
		path = append(path, d)
		prev = d
	}
	return path
}
