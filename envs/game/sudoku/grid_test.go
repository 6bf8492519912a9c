package sudoku

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// naiveCount is an independent solution counter for the tests: plain
// backtracking over the cells in order, no bitmasks, stopping at limit.
func naiveCount(g []int8, b, limit int) int {
	n := b * b
	g = append([]int8(nil), g...)
	ok := func(i int, v int8) bool {
		r, c := i/n, i%n
		for k := range n {
			if g[r*n+k] == v || g[k*n+c] == v {
				return false
			}
		}
		br, bc := r/b*b, c/b*b
		for dr := range b {
			for dc := range b {
				if g[(br+dr)*n+bc+dc] == v {
					return false
				}
			}
		}
		return true
	}
	count := 0
	var rec func(i int)
	rec = func(i int) {
		for i < len(g) && g[i] != 0 {
			i++
		}
		if i == len(g) {
			count++
			return
		}
		for v := int8(1); v <= int8(n) && count < limit; v++ {
			if ok(i, v) {
				g[i] = v
				rec(i + 1)
				g[i] = 0
			}
		}
	}
	rec(0)
	return count
}

// valid reports whether the complete grid g obeys every Sudoku rule.
func valid(g []int8, b int) bool {
	n := b * b
	for k := range n {
		var row, col, box uint32
		for j := range n {
			r, c := k/b*b+j/b, k%b*b+j%b
			row |= 1 << g[k*n+j]
			col |= 1 << g[j*n+k]
			box |= 1 << g[r*n+c]
		}
		want := uint32(1)<<(n+1) - 2
		if row != want || col != want || box != want {
			return false
		}
	}
	return true
}

func TestSolutionsAreValid(t *testing.T) {
	for _, b := range []int{2, 3} {
		s := shape{b * b, b}
		seen := map[string]bool{}
		seeds := 4000
		if b == 3 {
			seeds = 300
		}
		for seed := range uint64(seeds) {
			g := s.solution(rand.New(rand.NewPCG(seed, 0)))
			require.True(t, valid(g, b), "box %d seed %d: %v", b, seed, g)
			seen[string(s.render(nil, g, nil, nil))] = true
		}
		if b == 2 {
			assert.Len(t, seen, 288, "every one of the 288 complete 4×4 grids comes out")
		} else {
			assert.Len(t, seen, seeds, "9×9 solutions differ with the seed")
		}
	}
}

func TestPuzzlesHaveExactlyOneSolution(t *testing.T) {
	for _, c := range []struct {
		b, tries, seeds int
	}{{2, 10, 500}, {3, 50, 150}, {3, 64, 5}} {
		s := shape{c.b * c.b, c.b}
		for seed := range uint64(c.seeds) {
			rng := rand.New(rand.NewPCG(seed, 0))
			sol := s.solution(rng)
			p := s.puzzle(rng, sol, c.tries)
			blanks := 0
			for i, v := range p {
				if v == 0 {
					blanks++
					continue
				}
				require.Equal(t, sol[i], v, "givens come from the solution")
			}
			require.LessOrEqual(t, blanks, c.tries, "at most one blank per tried cell")
			require.Positive(t, blanks, "the first tried cell can always be blanked")
			require.Equal(t, 1, naiveCount(p, c.b, 2), "box %d seed %d", c.b, seed)
			require.Equal(t, 1, s.countSolutions(p, 2))
		}
	}
}

func TestCountSolutionsAgreesWithNaive(t *testing.T) {
	s := shape{4, 2}
	for seed := range uint64(300) {
		rng := rand.New(rand.NewPCG(seed, 5))
		g := s.solution(rng)
		// Blank a random number of cells, with no uniqueness check.
		for _, i := range rng.Perm(16)[:rng.IntN(17)] {
			g[i] = 0
		}
		require.Equal(t, naiveCount(g, 2, 1000), s.countSolutions(g, 1000), "seed %d", seed)
	}
	// Conflicting givens have no solution.
	g := make([]int8, 16)
	g[0], g[1] = 1, 1
	assert.Equal(t, 0, s.countSolutions(g, 2))
	// The empty 4×4 grid has 288 completions.
	assert.Equal(t, 288, s.countSolutions(make([]int8, 16), 1000))
}

func TestConflictAndRender(t *testing.T) {
	s := shape{4, 2}
	g := []int8{
		1, 0, 0, 0,
		0, 0, 2, 0,
		0, 0, 0, 0,
		0, 3, 0, 0,
	}
	assert.Equal(t, "row", s.conflict(g, 0, 3, 1))
	assert.Equal(t, "column", s.conflict(g, 2, 1, 3))
	assert.Equal(t, "box", s.conflict(g, 0, 3, 2))
	assert.Equal(t, "", s.conflict(g, 2, 2, 4))
	assert.Equal(t, "  1 2 3 4\n1 1 . . .\n2 . . 2 .\n3 . . . .\n4 . 3 . .", string(s.render(nil, g, nil, nil)))
}
