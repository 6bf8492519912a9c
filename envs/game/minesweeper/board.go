package minesweeper

import "math/rand/v2"

// cell states
const (
	hidden uint8 = iota
	revealed
	flagged
)

// board is an n×n Minesweeper board. Mines are placed by placeMines, after
// the first reveal.
type board struct {
	n        int
	mines    int
	placed   bool
	mine     []bool
	count    []int8 // mines among the 8 neighbours
	state    []uint8
	nOpen    int   // revealed cells
	queue    []int // flood-fill scratch
	neighBuf [8]int
}

func newBoard(n, mines int) *board {
	b := &board{}
	b.reset(n, mines)
	return b
}

// reset clears b to a fresh n×n board with no mines placed yet.
func (b *board) reset(n, mines int) {
	b.n, b.mines, b.placed, b.nOpen = n, mines, false, 0
	if cap(b.mine) < n*n {
		b.mine = make([]bool, n*n)
		b.count = make([]int8, n*n)
		b.state = make([]uint8, n*n)
	}
	b.mine, b.count, b.state = b.mine[:n*n], b.count[:n*n], b.state[:n*n]
	clear(b.mine)
	clear(b.count)
	clear(b.state)
}

func (b *board) safeCells() int { return b.n*b.n - b.mines }

func (b *board) inside(r, c int) bool { return r >= 0 && r < b.n && c >= 0 && c < b.n }

// neighbours returns the indices of the up to 8 cells around i, in a buffer
// owned by b (valid until the next call).
func (b *board) neighbours(i int) []int {
	r, c := i/b.n, i%b.n
	out := b.neighBuf[:0]
	for dr := -1; dr <= 1; dr++ {
		for dc := -1; dc <= 1; dc++ {
			if (dr != 0 || dc != 0) && b.inside(r+dr, c+dc) {
				out = append(out, (r+dr)*b.n+c+dc)
			}
		}
	}
	return out
}

// placeMines puts b.mines mines uniformly at random on cells outside the
// 3×3 neighbourhood of (r, c) and computes the neighbour counts.
func (b *board) placeMines(rng *rand.Rand, r, c int) {
	cand := make([]int, 0, b.n*b.n)
	for i := range b.n * b.n {
		ri, ci := i/b.n, i%b.n
		if ri >= r-1 && ri <= r+1 && ci >= c-1 && ci <= c+1 {
			continue
		}
		cand = append(cand, i)
	}
	// Partial Fisher–Yates: the first b.mines entries become the mines.
	for k := 0; k < b.mines; k++ {
		j := k + rng.IntN(len(cand)-k)
		cand[k], cand[j] = cand[j], cand[k]
		b.mine[cand[k]] = true
	}
	b.computeCounts()
}

// computeCounts fills count from mine and marks the mines placed.
func (b *board) computeCounts() {
	for i := range b.n * b.n {
		var m int8
		for _, j := range b.neighbours(i) {
			if b.mine[j] {
				m++
			}
		}
		b.count[i] = m
	}
	b.placed = true
}

// reveal opens the safe, hidden, unflagged cell i and, from every zero it
// opens, its hidden unflagged neighbours. It returns the number of cells
// opened.
func (b *board) reveal(i int) int {
	opened := 0
	b.queue = append(b.queue[:0], i)
	b.state[i] = revealed
	for len(b.queue) > 0 {
		j := b.queue[len(b.queue)-1]
		b.queue = b.queue[:len(b.queue)-1]
		opened++
		if b.count[j] != 0 {
			continue
		}
		for _, k := range b.neighbours(j) {
			if b.state[k] == hidden && !b.mine[k] {
				b.state[k] = revealed
				b.queue = append(b.queue, k)
			}
		}
	}
	b.nOpen += opened
	return opened
}

// won reports whether every safe cell is revealed (flags play no part).
func (b *board) won() bool { return b.placed && b.nOpen == b.safeCells() }

// render writes the board as a grid with row and column indices: '.'
// hidden, 'F' flagged, a digit for a revealed cell; with showMines, '*'
// marks every mine.
func (b *board) render(buf []byte, showMines bool) []byte {
	buf = append(buf, ' ')
	for c := range b.n {
		buf = append(buf, ' ', byte('0'+c))
	}
	for r := range b.n {
		buf = append(buf, '\n', byte('0'+r))
		for c := range b.n {
			i := r*b.n + c
			ch := byte('.')
			switch {
			case showMines && b.mine[i]:
				ch = '*'
			case b.state[i] == revealed:
				ch = byte('0' + b.count[i])
			case b.state[i] == flagged:
				ch = 'F'
			}
			buf = append(buf, ' ', ch)
		}
	}
	return buf
}
