package sudoku

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/game/gamekit/gamekittest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var ids = []string{"game:Sudoku-v0-easy", "game:Sudoku-v0-hard", "game:Sudoku-v0-random"}

func registry(t testing.TB) *envs.Registry {
	t.Helper()
	return gamekittest.Registry(t, Register)
}

func make1(t testing.TB, id string, opts ...envs.Option) *Env {
	t.Helper()
	return gamekittest.Make[*Env](t, Register, id, opts...)
}

func step(t testing.TB, e *Env, action string) envs.Step {
	t.Helper()
	return gamekittest.Step(t, e, action)
}

// emptyCells returns the 0-based indices of the empty cells.
func emptyCells(e *Env) []int {
	var out []int
	for i, v := range e.grid {
		if v == 0 {
			out = append(out, i)
		}
	}
	return out
}

// wrongNumber draws an empty cell of an easy (4×4) game and a number that
// is not its solution's: the cell and the boxed move.
func wrongNumber(e *Env, r *rand.Rand) (int, string) {
	cells := emptyCells(e)
	i := cells[r.IntN(len(cells))]
	return i, envs.Boxed(action{i/4 + 1, i%4 + 1, 1 + (int(e.sol[i])+r.IntN(3))%4}.String())
}

func TestResetPuzzleIsUnique(t *testing.T) {
	for _, id := range ids {
		e := make1(t, id)
		for seed := range uint64(60) {
			obs, info, err := e.Reset(seed)
			require.NoError(t, err)
			require.Equal(t, e.lv.Turns, info[envs.InfoMaxTurns])
			require.Equal(t, len(emptyCells(e)), info["empty_cells"])
			require.Equal(t, 1, naiveCount(e.grid, e.lv.Box, 2), "%s seed %d", id, seed)
			require.True(t, strings.HasSuffix(obs, string(e.sh.render(nil, e.grid, nil, nil))))
		}
	}
}

// TestLevelsMatchGEMDifficulty: GEM's clue parameter (10 for easy, 50 for
// hard) is the number of cells it tries to blank, so its easy puzzles have
// 8 to 10 empty cells and its hard ones mostly 46 to 48. Reading the
// parameter as the number of givens instead would leave 6 and 31.
func TestLevelsMatchGEMDifficulty(t *testing.T) {
	for _, c := range []struct {
		id       string
		seeds    int
		lo, hi   int     // every puzzle's empty cells
		mlo, mhi float64 // their mean
	}{
		{"game:Sudoku-v0-easy", 400, 7, 10, 9, 9.8},
		{"game:Sudoku-v0-hard", 150, 42, 50, 46.5, 48.5},
	} {
		e := make1(t, c.id)
		sum := 0
		for seed := range uint64(c.seeds) {
			_, info, err := e.Reset(seed)
			require.NoError(t, err)
			n := info["empty_cells"].(int)
			require.GreaterOrEqual(t, n, c.lo, "%s seed %d", c.id, seed)
			require.LessOrEqual(t, n, c.hi, "%s seed %d", c.id, seed)
			sum += n
		}
		mean := float64(sum) / float64(c.seeds)
		assert.GreaterOrEqual(t, mean, c.mlo, c.id)
		assert.LessOrEqual(t, mean, c.mhi, c.id)
	}
}

func TestSolveSumsToOne(t *testing.T) {
	for _, id := range ids {
		e := make1(t, id)
		for seed := range uint64(20) {
			_, _, err := e.Reset(seed)
			require.NoError(t, err)
			empty := emptyCells(e)
			require.LessOrEqual(t, len(empty), e.lv.Turns, "solvable within the turn limit")
			total := 0.0
			var st envs.Step
			for k, i := range empty {
				n := e.sh.n
				st = step(t, e, fmt.Sprintf(`\boxed{%d %d %d}`, i/n+1, i%n+1, e.sol[i]))
				require.InDelta(t, 1/float64(len(empty)), st.Reward, 1e-12)
				require.Equal(t, k == len(empty)-1, st.Done())
				total += st.Reward
			}
			require.True(t, st.Terminated)
			require.Equal(t, true, st.Info[envs.InfoSuccess])
			require.InDelta(t, 1.0, total, 1e-9)
			_, err = e.Step(envs.Boxed("1 1 1"))
			require.ErrorIs(t, err, envs.ErrNotReset)
		}
	}
}

func TestWrongAndOverwritePlaceNothing(t *testing.T) {
	e := make1(t, "game:Sudoku-v0-hard")
	_, _, err := e.Reset(4)
	require.NoError(t, err)
	n := e.sh.n
	given := -1
	for i, v := range e.grid {
		if v != 0 {
			given = i
			break
		}
	}
	empty := emptyCells(e)
	i := empty[0]
	wrong := e.sol[i]%int8(n) + 1
	before := append([]int8(nil), e.grid...)
	for _, c := range []struct{ action, why string }{
		{fmt.Sprintf("%d %d %d", given/n+1, given%n+1, e.sol[given]), "already filled"},
		{fmt.Sprintf("%d %d %d", i/n+1, i%n+1, wrong), "Invalid move"},
		{"0 1 1", "from 1 to 9"},
		{"1 1 10", "from 1 to 9"},
	} {
		st := step(t, e, envs.Boxed(c.action))
		assert.Equal(t, 0.0, st.Reward, c.action)
		assert.Equal(t, true, st.Info[envs.InfoInvalid], c.action)
		assert.False(t, st.Done())
		assert.Contains(t, st.Obs, c.why, c.action)
		assert.Equal(t, before, e.grid, "nothing placed by %s", c.action)
	}
	st := step(t, e, envs.Boxed(fmt.Sprintf("%d, %d, %d", i/n+1, i%n+1, e.sol[i])))
	assert.InDelta(t, 1/float64(len(empty)), st.Reward, 1e-12)
	st = step(t, e, envs.Boxed(fmt.Sprintf("%d %d %d", i/n+1, i%n+1, e.sol[i])))
	assert.Equal(t, 0.0, st.Reward, "placing the same number twice is an overwrite")
	assert.Equal(t, true, st.Info[envs.InfoInvalid])
	assert.Equal(t, 6, st.Info[envs.InfoTurn])
}

func TestWrongNumberMessageNamesTheClash(t *testing.T) {
	e := make1(t, "game:Sudoku-v0-hard")
	_, _, err := e.Reset(11)
	require.NoError(t, err)
	n := e.sh.n
	i := emptyCells(e)[0]
	r, c := i/n, i%n
	for k := range n {
		if v := e.grid[r*n+k]; v != 0 {
			st := step(t, e, envs.Boxed(fmt.Sprintf("%d %d %d", r+1, c+1, v)))
			assert.Contains(t, st.Obs, fmt.Sprintf("%d is already in that row", v))
			return
		}
	}
	t.Fatal("the row of an empty cell has a given")
}

func TestFormatErrorTerminates(t *testing.T) {
	for _, action := range []string{"1 1 1", `\boxed{1 1}`, `\boxed{a 1 1}`, `\boxed{1 1 1 1}`, `\boxed{}`} {
		e := make1(t, "game:Sudoku-v0-easy")
		_, _, err := e.Reset(1)
		require.NoError(t, err)
		st := step(t, e, action)
		assert.Equal(t, envs.RewardFormatError, st.Reward, action)
		assert.True(t, st.Terminated, action)
		assert.Equal(t, true, st.Info[envs.InfoFormatError], action)
		assert.Equal(t, false, st.Info[envs.InfoSuccess], action)
	}
}

func TestTurnLimitTruncates(t *testing.T) {
	e := make1(t, "game:Sudoku-v0-easy", envs.With("max_turns", 2))
	_, info, err := e.Reset(2)
	require.NoError(t, err)
	assert.Equal(t, 2, info[envs.InfoMaxTurns])
	assert.False(t, step(t, e, envs.Boxed("9 9 9")).Done())
	st := step(t, e, envs.Boxed("9 9 9"))
	assert.True(t, st.Truncated)
	assert.False(t, st.Terminated)
	assert.Equal(t, false, st.Info[envs.InfoSuccess])
}

func TestStepBeforeReset(t *testing.T) {
	_, err := make1(t, "game:Sudoku-v0-easy").Step(envs.Boxed("1 1 1"))
	assert.ErrorIs(t, err, envs.ErrNotReset)
}

func TestSameSeedSameEpisode(t *testing.T) {
	for _, id := range ids {
		gamekittest.SameSeedSameEpisode(t, func() *Env { return make1(t, id) }, 10)
	}
}

func TestRandomDrawsBothSizes(t *testing.T) {
	e := make1(t, "game:Sudoku-v0-random")
	seen := map[int]int{}
	for seed := range uint64(40) {
		_, _, err := e.Reset(seed)
		require.NoError(t, err)
		seen[e.sh.n]++
	}
	assert.Len(t, seen, 2)
	assert.Positive(t, seen[4])
	assert.Positive(t, seen[9])
}

func TestSampleActionAlwaysParses(t *testing.T) {
	for _, id := range ids {
		e := make1(t, id)
		rng := rand.New(rand.NewPCG(1, 1))
		_, err := parseAction(e.SampleAction(rng))
		require.NoError(t, err, "before Reset")
		for seed := range uint64(50) {
			_, _, err := e.Reset(seed)
			require.NoError(t, err)
			for {
				a := e.SampleAction(rng)
				_, err := parseAction(a)
				require.NoError(t, err, a)
				st := step(t, e, a)
				if st.Done() {
					break
				}
			}
		}
	}
}

func TestOptions(t *testing.T) {
	r := registry(t)
	_, err := r.Make("game:Sudoku-v0-easy", envs.With("max_turns", "many"))
	require.ErrorContains(t, err, "max_turns")
	_, err = r.Make("game:Sudoku-v0-easy", envs.With("style", 3))
	require.ErrorContains(t, err, "style")
	e := make1(t, "game:Sudoku-v0-hard", envs.With("style", "brief"))
	obs, _, err := e.Reset(0)
	require.NoError(t, err)
	lines := strings.Split(obs, "\n")
	assert.Len(t, lines, 1+1+9, "one instruction line, a header and 9 rows")
	assert.True(t, strings.HasPrefix(obs, "Sudoku 9x9, 50 turns."))
	assert.Contains(t, e.Description(), "9×9")
}
