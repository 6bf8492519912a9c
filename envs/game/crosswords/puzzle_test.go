package crosswords

import (
	"math/rand/v2"
	"testing"

	"github.com/gemgo/gemgo/envs/game/words"
	"github.com/stretchr/testify/require"
)

// checkPuzzle asserts that p is a consistent crossword of n distinct words:
// each entry reads its word in the solution, is bounded by black cells,
// shares no cell with an entry of the same direction, and every letter cell
// belongs to an entry; each entry crosses another one.
func checkPuzzle(t *testing.T, p Puzzle, n int) {
	t.Helper()
	require.Len(t, p.Entries, n)
	require.Len(t, p.Solution, p.Rows*p.Cols)
	owner := map[[3]int]string{} // (row, col, down) -> word
	covered := map[int]int{}
	seen := map[string]bool{}
	for _, e := range p.Entries {
		require.False(t, seen[e.Word], "word %s twice", e.Word)
		seen[e.Word] = true
		dr, dc := e.Step()
		require.Zero(t, p.At(e.Row-dr, e.Col-dc), "cell before %s must be black", e.Word)
		require.Zero(t, p.At(e.Row+dr*len(e.Word), e.Col+dc*len(e.Word)), "cell after %s must be black", e.Word)
		for i := range len(e.Word) {
			r, c := e.Row+dr*i, e.Col+dc*i
			require.Equal(t, e.Word[i], p.At(r, c), "%s letter %d at (%d,%d)", e.Word, i, r, c)
			key := [3]int{r, c, 0}
			if e.Down {
				key[2] = 1
			}
			require.Empty(t, owner[key], "%s overlaps %s in the same direction", e.Word, owner[key])
			owner[key] = e.Word
			covered[r*p.Cols+c]++
		}
	}
	for k, l := range p.Solution {
		if l != 0 {
			require.NotZero(t, covered[k], "letter cell %d belongs to no word", k)
		}
	}
	if n > 1 {
		for _, e := range p.Entries {
			dr, dc := e.Step()
			crossed := false
			for i := range len(e.Word) {
				if covered[(e.Row+dr*i)*p.Cols+e.Col+dc*i] == 2 {
					crossed = true
				}
			}
			require.True(t, crossed, "%s crosses no word", e.Word)
		}
	}
	// The bounding box is tight.
	for _, line := range [][2]int{{0, -1}, {p.Rows - 1, -1}} {
		empty := true
		for c := range p.Cols {
			if p.At(line[0], c) != 0 {
				empty = false
			}
		}
		require.False(t, empty, "row %d is empty", line[0])
	}
}

func TestGeneratedGridsAreConsistent(t *testing.T) {
	clues := words.Clues()
	for seed := range uint64(500) {
		n := 2 + int(seed%4) // 2 to 5 words
		p, err := Generate(rand.New(rand.NewPCG(seed, 0)), clues, n)
		require.NoError(t, err, "seed %d", seed)
		checkPuzzle(t, p, n)
	}
}

func TestGenerateIsDeterministic(t *testing.T) {
	a, err := Generate(rand.New(rand.NewPCG(42, 0)), words.Clues(), 3)
	require.NoError(t, err)
	b, err := Generate(rand.New(rand.NewPCG(42, 0)), words.Clues(), 3)
	require.NoError(t, err)
	require.Equal(t, a, b)
}

func TestGenerateImpossible(t *testing.T) {
	// No two words share a letter: nothing can cross.
	clues := []words.Clue{{Word: "abc", Text: "x"}, {Word: "def", Text: "y"}, {Word: "ghi", Text: "z"}}
	_, err := Generate(rand.New(rand.NewPCG(1, 0)), clues, 2)
	require.ErrorIs(t, err, ErrNoPuzzle)
	_, err = Generate(rand.New(rand.NewPCG(1, 0)), clues, 4)
	require.ErrorIs(t, err, ErrNoPuzzle)
	p, err := Generate(rand.New(rand.NewPCG(1, 0)), clues, 1)
	require.NoError(t, err)
	checkPuzzle(t, p, 1)
}
