package wordsearch

import (
	"errors"
	"math/rand/v2"
)

// Dir is a direction a word runs in: a row step and a column step.
type Dir struct{ DR, DC int }

// Straight are the easy directions: left to right and top to bottom.
func Straight() []Dir { return []Dir{{0, 1}, {1, 0}} }

// All are the 8 directions, backwards and diagonals included.
func All() []Dir {
	return []Dir{{0, 1}, {1, 0}, {1, 1}, {-1, 1}, {0, -1}, {-1, 0}, {-1, -1}, {1, -1}}
}

// Placement is where a hidden word lies: its first letter at (Row, Col),
// each next letter one Dir step further.
type Placement struct {
	Word     string
	Row, Col int
	Dir      Dir
}

// End returns the cell of the word's last letter.
func (p Placement) End() (r, c int) {
	n := len(p.Word) - 1
	return p.Row + p.Dir.DR*n, p.Col + p.Dir.DC*n
}

// Grid is a square of lowercase letters with hidden words.
type Grid struct {
	Size    int
	Letters []byte // Size×Size, row by row
	Words   []Placement
}

// At returns the letter at (r, c), or 0 outside the grid.
func (g *Grid) At(r, c int) byte {
	if r < 0 || c < 0 || r >= g.Size || c >= g.Size {
		return 0
	}
	return g.Letters[r*g.Size+c]
}

// ErrNoGrid is returned when the words cannot all be hidden.
var ErrNoGrid = errors.New("wordsearch: cannot hide the words in the grid: use a larger grid, fewer or shorter words")

// Generate hides n distinct words of pool (each of 2 to size letters) in
// a size×size grid, running in the given directions, and fills the other
// cells with random letters. Words may cross where they share a letter.
//
// Every hidden word spells on exactly one line of the grid, read either
// way and in any of the 8 directions (see Grid.Lines): a word is never
// hidden together with its reverse (gum and mug), and the random letters
// are drawn again when they would spell a hidden word a second time. So
// the cells where a player sees a listed word are the cells it was hidden
// in, the only ones that credit it.
func Generate(r *rand.Rand, pool []string, size, n int, dirs []Dir) (Grid, error) {
	if n < 1 || size < 1 || len(dirs) == 0 || len(pool) == 0 {
		return Grid{}, ErrNoGrid
	}
	for range 10 {
		g := Grid{Size: size, Letters: make([]byte, size*size)}
		// Draw words at random (with repeats rejected) rather than shuffle a
		// pool of thousands for five words.
		for tries := 0; len(g.Words) < n && tries < 40*n; tries++ {
			w := pool[r.IntN(len(pool))]
			if len(w) < 2 || len(w) > size || g.clashes(w) {
				continue
			}
			for range 50 {
				p := Placement{Word: w, Row: r.IntN(size), Col: r.IntN(size), Dir: dirs[r.IntN(len(dirs))]}
				if g.fits(p) {
					g.put(p)
					break
				}
			}
		}
		if len(g.Words) < n {
			continue
		}
		free := make([]int, 0, len(g.Letters))
		for i, l := range g.Letters {
			if l == 0 {
				free = append(free, i)
			}
		}
		for range 20 {
			for _, i := range free {
				g.Letters[i] = 'a' + byte(r.IntN(26))
			}
			if g.eachWordOnce() {
				return g, nil
			}
		}
	}
	return Grid{}, ErrNoGrid
}

// clashes says whether w or its reverse is already hidden.
func (g *Grid) clashes(w string) bool {
	for _, p := range g.Words {
		if p.Word == w || isReverse(p.Word, w) {
			return true
		}
	}
	return false
}

func isReverse(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range len(a) {
		if a[i] != b[len(b)-1-i] {
			return false
		}
	}
	return true
}

// eachWordOnce says whether every hidden word spells on exactly one line.
func (g *Grid) eachWordOnce() bool {
	for _, p := range g.Words {
		if g.Lines(p.Word) != 1 {
			return false
		}
	}
	return true
}

// Lines counts the lines of the grid that spell w (of 2 letters or more),
// forwards or backwards, in any of the 8 directions. A line is counted
// once whichever way it reads, so a palindrome hidden once counts 1.
func (g *Grid) Lines(w string) int {
	n := len(w)
	if n < 2 {
		return 0
	}
	count := 0
	// Half of the 8 directions: the other half reads the same lines backwards.
	for _, d := range []Dir{{0, 1}, {1, 0}, {1, 1}, {-1, 1}} {
		for r := range g.Size {
			for c := range g.Size {
				if g.At(r+d.DR*(n-1), c+d.DC*(n-1)) == 0 {
					continue // the line leaves the grid
				}
				fwd, back := true, true
				for i := 0; i < n && (fwd || back); i++ {
					l := g.At(r+d.DR*i, c+d.DC*i)
					fwd = fwd && l == w[i]
					back = back && l == w[n-1-i]
				}
				if fwd || back {
					count++
				}
			}
		}
	}
	return count
}

func (g *Grid) fits(p Placement) bool {
	er, ec := p.End()
	if er < 0 || ec < 0 || er >= g.Size || ec >= g.Size {
		return false
	}
	for i := range len(p.Word) {
		l := g.At(p.Row+p.Dir.DR*i, p.Col+p.Dir.DC*i)
		if l != 0 && l != p.Word[i] {
			return false
		}
	}
	return true
}

func (g *Grid) put(p Placement) {
	for i := range len(p.Word) {
		g.Letters[(p.Row+p.Dir.DR*i)*g.Size+p.Col+p.Dir.DC*i] = p.Word[i]
	}
	g.Words = append(g.Words, p)
}

// Read returns the letters from (r1, c1) to (r2, c2) inclusive. ok is false
// when an end is outside the grid or the ends are not on one row, column
// or diagonal.
func (g *Grid) Read(dst []byte, r1, c1, r2, c2 int) (letters []byte, ok bool) {
	if g.At(r1, c1) == 0 || g.At(r2, c2) == 0 {
		return dst, false
	}
	dr, dc := r2-r1, c2-c1
	if dr != 0 && dc != 0 && abs(dr) != abs(dc) {
		return dst, false
	}
	n := max(abs(dr), abs(dc))
	sr, sc := sign(dr), sign(dc)
	for i := 0; i <= n; i++ {
		dst = append(dst, g.At(r1+sr*i, c1+sc*i))
	}
	return dst, true
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}
