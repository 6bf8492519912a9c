package crosswords

import (
	"errors"
	"math/rand/v2"
	"slices"

	"github.com/gemgo/gemgo/envs/game/words"
)

// Entry is one word of a crossword.
type Entry struct {
	Word     string // lowercase a–z
	Clue     string
	Row, Col int // first letter, 0-indexed
	Down     bool
}

// Step returns the row and column steps along the entry.
func (e Entry) Step() (dr, dc int) {
	if e.Down {
		return 1, 0
	}
	return 0, 1
}

// Puzzle is a solved crossword: Solution[r*Cols+c] is the letter of a cell,
// or 0 for a black cell.
type Puzzle struct {
	Rows, Cols int
	Entries    []Entry // sorted by (row, col), across before down
	Solution   []byte
}

// At returns the solution letter at (r, c), 0 for a black cell or a cell
// outside the grid.
func (p Puzzle) At(r, c int) byte {
	if r < 0 || c < 0 || r >= p.Rows || c >= p.Cols {
		return 0
	}
	return p.Solution[r*p.Cols+c]
}

// canvas is the scratch board a puzzle is built on.
const canvas = 48

type board struct {
	cell   [canvas * canvas]byte
	across [canvas * canvas]bool // a word runs across through the cell
	down   [canvas * canvas]bool
	placed []Entry
}

func (b *board) at(r, c int) byte {
	if r < 0 || c < 0 || r >= canvas || c >= canvas {
		return 0
	}
	return b.cell[r*canvas+c]
}

// fits reports whether w can go at (r, c): inside the canvas, with black
// (empty) cells before and after it, matching letters where it crosses a
// perpendicular word, no neighbours beside its new cells (no accidental
// words), and at least one crossing unless the board is empty.
func (b *board) fits(w string, r, c int, down bool) bool {
	dr, dc := 0, 1
	if down {
		dr, dc = 1, 0
	}
	n := len(w)
	if r < 1 || c < 1 || r+dr*n >= canvas-1 || c+dc*n >= canvas-1 {
		return false
	}
	if b.at(r-dr, c-dc) != 0 || b.at(r+dr*n, c+dc*n) != 0 {
		return false
	}
	crossings := 0
	for i := range n {
		rr, cc := r+dr*i, c+dc*i
		k := rr*canvas + cc
		if l := b.cell[k]; l != 0 {
			if l != w[i] || (down && b.down[k]) || (!down && b.across[k]) {
				return false
			}
			crossings++
			continue
		}
		if b.at(rr+dc, cc+dr) != 0 || b.at(rr-dc, cc-dr) != 0 {
			return false
		}
	}
	return crossings > 0 || len(b.placed) == 0
}

func (b *board) put(e Entry) {
	dr, dc := e.Step()
	for i := range len(e.Word) {
		k := (e.Row+dr*i)*canvas + e.Col + dc*i
		b.cell[k] = e.Word[i]
		if e.Down {
			b.down[k] = true
		} else {
			b.across[k] = true
		}
	}
	b.placed = append(b.placed, e)
}

// crossingSpots returns every placement of w that crosses a placed word.
func (b *board) crossingSpots(w string) []Entry {
	var out []Entry
	for _, p := range b.placed {
		pr, pc := p.Step()
		for i := range len(p.Word) {
			r, c := p.Row+pr*i, p.Col+pc*i
			for j := range len(w) {
				if w[j] != p.Word[i] {
					continue
				}
				e := Entry{Word: w, Down: !p.Down}
				if e.Down {
					e.Row, e.Col = r-j, c
				} else {
					e.Row, e.Col = r, c-j
				}
				if b.fits(w, e.Row, e.Col, e.Down) {
					out = append(out, e)
				}
			}
		}
	}
	return out
}

// ErrNoPuzzle is returned when no crossword of the asked size can be built
// from the clues.
var ErrNoPuzzle = errors.New("crosswords: cannot build a grid from these clues: add clues whose words share letters")

// Generate builds a crossword of n words drawn from clues with r. Each word
// after the first crosses an earlier one.
func Generate(r *rand.Rand, clues []words.Clue, n int) (Puzzle, error) {
	if n < 1 || n > len(clues) {
		return Puzzle{}, ErrNoPuzzle
	}
	for range 20 {
		order := r.Perm(len(clues))
		b := &board{}
		first := clues[order[0]]
		b.put(Entry{Word: first.Word, Clue: first.Text, Row: canvas / 2, Col: canvas/2 - len(first.Word)/2})
		used := map[string]bool{first.Word: true}
		for _, idx := range order[1:] {
			if len(b.placed) == n {
				break
			}
			cl := clues[idx]
			if used[cl.Word] {
				continue
			}
			spots := b.crossingSpots(cl.Word)
			if len(spots) == 0 {
				continue
			}
			e := spots[r.IntN(len(spots))]
			e.Clue = cl.Text
			b.put(e)
			used[cl.Word] = true
		}
		if len(b.placed) == n {
			return b.crop(), nil
		}
	}
	return Puzzle{}, ErrNoPuzzle
}

// crop cuts the board to the bounding box of its words.
func (b *board) crop() Puzzle {
	r0, c0, r1, c1 := canvas, canvas, 0, 0
	for _, e := range b.placed {
		dr, dc := e.Step()
		n := len(e.Word) - 1
		r0, c0 = min(r0, e.Row), min(c0, e.Col)
		r1, c1 = max(r1, e.Row+dr*n), max(c1, e.Col+dc*n)
	}
	p := Puzzle{Rows: r1 - r0 + 1, Cols: c1 - c0 + 1}
	p.Solution = make([]byte, p.Rows*p.Cols)
	for r := range p.Rows {
		copy(p.Solution[r*p.Cols:(r+1)*p.Cols], b.cell[(r0+r)*canvas+c0:])
	}
	for _, e := range b.placed {
		e.Row -= r0
		e.Col -= c0
		p.Entries = append(p.Entries, e)
	}
	slices.SortFunc(p.Entries, func(a, b Entry) int {
		if a.Row != b.Row {
			return a.Row - b.Row
		}
		if a.Col != b.Col {
			return a.Col - b.Col
		}
		if a.Down == b.Down {
			return 0
		}
		if b.Down {
			return -1
		}
		return 1
	})
	return p
}
