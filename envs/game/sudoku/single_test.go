package sudoku

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/envtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// firstSingle finds, from LegalMoves alone, the first empty cell in
// reading order that exactly one listed move fills: its move and true.
func firstSingle(e *Env) (string, bool) {
	legal := e.LegalMoves()
	count := map[string]int{}
	var cells []string
	for _, m := range legal {
		cell := m[:len(m)-2] // "row col"
		if count[cell] == 0 {
			cells = append(cells, cell)
		}
		count[cell]++
	}
	for _, cell := range cells {
		if count[cell] == 1 {
			for _, m := range legal {
				if m[:len(m)-2] == cell {
					return m, true
				}
			}
		}
	}
	return "", false
}

// TestSampleSingleSolvesEveryEasyPuzzle: with sample: single, every move
// of 300 easy games is the first naked single that LegalMoves shows, is
// accepted (never invalid) and places the solution's number, so each game
// is won in exactly as many turns as it has empty cells; on 4×4 puzzles
// the grid always has a naked single, so the default draw is never used.
func TestSampleSingleSolvesEveryEasyPuzzle(t *testing.T) {
	e := make1(t, "game:Sudoku-v0-easy", envs.With(envs.SampleOption, "single"))
	for seed := range uint64(300) {
		_, info, err := e.Reset(seed)
		require.NoError(t, err)
		empty := info["empty_cells"].(int)
		r := rand.New(rand.NewPCG(seed, 9))
		for turn := 1; ; turn++ {
			want, ok := firstSingle(e)
			require.True(t, ok, "seed %d turn %d: no naked single", seed, turn)
			a := e.SampleAction(r)
			require.Equal(t, envs.Boxed(want), a, "seed %d turn %d", seed, turn)
			st := step(t, e, a)
			require.NotContains(t, st.Info, envs.InfoInvalid, "seed %d turn %d: %s", seed, turn, st.Obs)
			if st.Done() {
				require.Equal(t, true, st.Info[envs.InfoSuccess], "seed %d", seed)
				require.Equal(t, empty, turn, "seed %d: one turn per empty cell", seed)
				break
			}
		}
	}
}

// TestSampleSingleFallsBackToTheDefaultDraw: on 9×9 puzzles, where a grid
// can lack a naked single, sample: single plays the naked single where
// there is one and otherwise the default's draw from the same random
// stream (an env without the option, on the same grid, draws the same
// move); both cases occur over these seeds.
func TestSampleSingleFallsBackToTheDefaultDraw(t *testing.T) {
	single := make1(t, "game:Sudoku-v0-hard", envs.With(envs.SampleOption, "single"))
	plain := make1(t, "game:Sudoku-v0-hard")
	singles, draws := 0, 0
	for seed := range uint64(8) {
		_, _, err := single.Reset(seed)
		require.NoError(t, err)
		_, _, err = plain.Reset(seed)
		require.NoError(t, err)
		pcg := rand.NewPCG(seed, 5)
		r := rand.New(pcg)
		for turn := 1; turn <= 60; turn++ {
			want, ok := firstSingle(single)
			src := *pcg // the draw's stream, copied before SampleAction reads it
			a := single.SampleAction(r)
			if ok {
				singles++
				require.Equal(t, envs.Boxed(want), a, "seed %d turn %d", seed, turn)
			} else {
				draws++
				require.Equal(t, plain.SampleAction(rand.New(&src)), a, "seed %d turn %d", seed, turn)
				require.Contains(t, single.LegalMoves(), a[len(`\boxed{`):len(a)-1])
			}
			st := step(t, single, a)
			step(t, plain, a) // keep the twin's grid the same
			if st.Done() {
				break
			}
		}
	}
	assert.Positive(t, singles)
	assert.Positive(t, draws)
}

// TestSampleOptionDefault: sample absent and sample: any draw the same
// moves (the draw the golden transcripts in envs/builtin pin), and a value
// other than any, single or first is an error naming the allowed ones.
func TestSampleOptionDefault(t *testing.T) {
	var got [2][]string
	for k, opts := range [][]envs.Option{nil, {envs.With(envs.SampleOption, "any")}} {
		e := make1(t, "game:Sudoku-v0-easy", opts...)
		got[k] = envtest.SampleDraws(t, e, 50, 0)
	}
	require.True(t, slices.Equal(got[0], got[1]))
	// The default draws moves that are not the first naked single, which
	// the option's player would play: the two players differ.
	e := make1(t, "game:Sudoku-v0-easy")
	differ := 0
	for seed := range uint64(50) {
		_, _, err := e.Reset(seed)
		require.NoError(t, err)
		want, _ := firstSingle(e)
		if e.SampleAction(rand.New(rand.NewPCG(seed, 3))) != envs.Boxed(want) {
			differ++
		}
	}
	assert.Greater(t, differ, 25, "the default draw is random, not the first single")
	_, err := registry(t).Make("game:Sudoku-v0-easy", envs.With(envs.SampleOption, "last"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), fmt.Sprintf(`%s = "last"`, envs.SampleOption))
	assert.Contains(t, err.Error(), "any, single, first")
}
