package minesweeper

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

var ids = []string{"game:Minesweeper-v0-easy", "game:Minesweeper-v0-hard", "game:Minesweeper-v0-random"}

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

func TestFirstRevealIsSafeOverSeeds(t *testing.T) {
	for _, id := range ids {
		e := make1(t, id)
		for seed := range uint64(300) {
			_, info, err := e.Reset(seed)
			require.NoError(t, err)
			require.Equal(t, e.lv.Turns, info[envs.InfoMaxTurns])
			rng := rand.New(rand.NewPCG(seed, 7))
			r, c := rng.IntN(e.lv.Size), rng.IntN(e.lv.Size)
			st := step(t, e, fmt.Sprintf(`I pick \boxed{reveal %d %d}`, r, c))
			require.False(t, st.Terminated && !st.Info[envs.InfoSuccess].(bool), "%s seed %d: first reveal lost", id, seed)
			require.Greater(t, st.Reward, 0.0)
			require.GreaterOrEqual(t, st.Reward*float64(e.b.safeCells()), 4-1e-9, "a zero opens at least its 2×2 corner block")
		}
	}
}

func TestWinWithoutFlagsSumsToOne(t *testing.T) {
	for _, id := range ids {
		e := make1(t, id)
		for seed := range uint64(50) {
			_, _, err := e.Reset(seed)
			require.NoError(t, err)
			st := step(t, e, envs.Boxed("reveal 0 0"))
			total := st.Reward
			s := NewSolver(e)
			for !st.Done() {
				a, err := s.Act("")
				require.NoError(t, err)
				before := e.b.nOpen
				st = step(t, e, a)
				require.InDelta(t, float64(e.b.nOpen-before)/float64(e.b.safeCells()), st.Reward, 1e-12)
				total += st.Reward
			}
			require.True(t, st.Terminated, "%s seed %d", id, seed)
			require.False(t, st.Truncated)
			require.Equal(t, true, st.Info[envs.InfoSuccess])
			require.InDelta(t, 1.0, total, 1e-9)
			require.Contains(t, st.Obs, "you win")
			_, err = e.Step(envs.Boxed("reveal 0 0"))
			require.ErrorIs(t, err, envs.ErrNotReset)
		}
	}
}

func TestMineEndsWithZero(t *testing.T) {
	e := make1(t, "game:Minesweeper-v0-easy")
	_, _, err := e.Reset(3)
	require.NoError(t, err)
	step(t, e, envs.Boxed("reveal 2 2"))
	mine := -1
	for i, m := range e.b.mine {
		if m {
			mine = i
			break
		}
	}
	st := step(t, e, envs.Boxed(fmt.Sprintf("reveal %d %d", mine/5, mine%5)))
	assert.Equal(t, 0.0, st.Reward)
	assert.True(t, st.Terminated)
	assert.Equal(t, false, st.Info[envs.InfoSuccess])
	assert.Equal(t, 5, strings.Count(st.Obs, "*"), "the lost board shows every mine")
}

func TestInvalidMovesGoOn(t *testing.T) {
	e := make1(t, "game:Minesweeper-v0-easy")
	_, _, err := e.Reset(1)
	require.NoError(t, err)
	cases := []struct{ action, why string }{
		{"reveal 5 0", "off the board"},
		{"flag -1 2", "off the board"},
	}
	for _, c := range cases {
		st := step(t, e, envs.Boxed(c.action))
		assert.Equal(t, 0.0, st.Reward, c.action)
		assert.Equal(t, true, st.Info[envs.InfoInvalid], c.action)
		assert.False(t, st.Done())
		assert.Contains(t, st.Obs, c.why)
	}
	st := step(t, e, envs.Boxed("flag 4 4"))
	assert.Nil(t, st.Info[envs.InfoInvalid])
	assert.Contains(t, st.Obs, "\n4 . . . . F")
	st = step(t, e, envs.Boxed("reveal 4 4"))
	assert.Equal(t, true, st.Info[envs.InfoInvalid])
	assert.Contains(t, st.Obs, "flagged")
	st = step(t, e, envs.Boxed("FLAG 4, 4"))
	assert.Contains(t, st.Obs, "Removed the flag")
	st = step(t, e, envs.Boxed("reveal 0 0"))
	require.Greater(t, st.Reward, 0.0)
	st = step(t, e, envs.Boxed("reveal 0 0"))
	assert.Equal(t, true, st.Info[envs.InfoInvalid])
	assert.Contains(t, st.Obs, "already revealed")
	assert.Equal(t, 7, st.Info[envs.InfoTurn])
}

func TestFormatErrorTerminates(t *testing.T) {
	for _, action := range []string{"reveal 1 1", `\boxed{open 1 1}`, `\boxed{reveal 1}`, `\boxed{reveal a b}`, `\boxed{reveal 1 1`} {
		e := make1(t, "game:Minesweeper-v0-easy")
		_, _, err := e.Reset(1)
		require.NoError(t, err)
		st := step(t, e, action)
		assert.Equal(t, envs.RewardFormatError, st.Reward, action)
		assert.True(t, st.Terminated, action)
		assert.Equal(t, true, st.Info[envs.InfoFormatError], action)
		assert.Equal(t, false, st.Info[envs.InfoSuccess], action)
		_, err = e.Step(envs.Boxed("reveal 1 1"))
		assert.ErrorIs(t, err, envs.ErrNotReset)
	}
}

func TestTurnLimitTruncates(t *testing.T) {
	e := make1(t, "game:Minesweeper-v0-hard", envs.With("max_turns", 2))
	_, info, err := e.Reset(9)
	require.NoError(t, err)
	assert.Equal(t, 2, info[envs.InfoMaxTurns])
	st := step(t, e, envs.Boxed("reveal 0 0"))
	assert.False(t, st.Done())
	st = step(t, e, envs.Boxed("flag 7 7"))
	assert.True(t, st.Truncated)
	assert.False(t, st.Terminated)
	assert.Equal(t, false, st.Info[envs.InfoSuccess])
}

func TestStepBeforeReset(t *testing.T) {
	e := make1(t, "game:Minesweeper-v0-easy")
	_, err := e.Step(envs.Boxed("reveal 0 0"))
	assert.ErrorIs(t, err, envs.ErrNotReset)
}

func TestSameSeedSameEpisode(t *testing.T) {
	for _, id := range ids {
		gamekittest.SameSeedSameEpisode(t, func() *Env { return make1(t, id) }, 20)
	}
}

func TestRandomDrawsEverySize(t *testing.T) {
	e := make1(t, "game:Minesweeper-v0-random")
	seen := map[int]bool{}
	for seed := range uint64(100) {
		_, info, err := e.Reset(seed)
		require.NoError(t, err)
		require.Equal(t, e.lv.Size*e.lv.Size, info[envs.InfoMaxTurns])
		require.Equal(t, e.lv.Size*e.lv.Size/5, e.lv.Mines)
		seen[e.lv.Size] = true
	}
	assert.Equal(t, map[int]bool{5: true, 6: true, 7: true, 8: true}, seen)
}

func TestSampleActionAlwaysParses(t *testing.T) {
	for _, id := range ids {
		e := make1(t, id)
		rng := rand.New(rand.NewPCG(1, 1))
		require.NotEmpty(t, e.SampleAction(rng), "before Reset")
		for seed := range uint64(200) {
			_, _, err := e.Reset(seed)
			require.NoError(t, err)
			for {
				a := e.SampleAction(rng)
				_, err := parseAction(a)
				require.NoError(t, err, a)
				st := step(t, e, a)
				require.Nil(t, st.Info[envs.InfoFormatError])
				if st.Done() {
					break
				}
			}
		}
	}
}

func TestOptions(t *testing.T) {
	r := registry(t)
	_, err := r.Make("game:Minesweeper-v0-easy", envs.With("max_turns", -1))
	require.ErrorContains(t, err, "max_turns")
	_, err = r.Make("game:Minesweeper-v0-easy", envs.With("style", "verbose"))
	require.ErrorContains(t, err, "style")
	_, err = r.Make("game:Minesweeper-v0-easy", envs.With("mines", 3))
	require.ErrorContains(t, err, "unknown option mines")
	e := make1(t, "game:Minesweeper-v0-easy", envs.With("style", "brief"))
	obs, _, err := e.Reset(0)
	require.NoError(t, err)
	assert.Len(t, strings.Split(obs, "\n"), 1+1+5, "one instruction line, a header and 5 rows")
	assert.True(t, strings.HasPrefix(obs, "Minesweeper 5x5, 5 mines, 25 turns."))
	assert.NotEmpty(t, e.Description())
}
