package sokoban

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/game/gamekit/gamekittest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var ids = []string{"game:Sokoban-v0-easy", "game:Sokoban-v0-hard", "game:Sokoban-v0-random"}

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

// TestPlaySolverSolution: the solver's shortest solution, played through
// the env, wins on its last move with reward 1.
func TestPlaySolverSolution(t *testing.T) {
	for _, id := range ids {
		e := make1(t, id)
		for seed := range uint64(15) {
			obs, info, err := e.Reset(seed)
			require.NoError(t, err)
			require.Equal(t, e.lv.Turns, info[envs.InfoMaxTurns])
			require.True(t, strings.HasSuffix(obs, string(e.r.render(nil))))
			moves := moves(e.r, e.genSteps)
			require.NotEmpty(t, moves, "%s seed %d", id, seed)
			for k, d := range moves {
				st := step(t, e, envs.Boxed(d.String()))
				require.Nil(t, st.Info[envs.InfoInvalid])
				if k < len(moves)-1 {
					require.False(t, st.Done())
					require.Equal(t, 0.0, st.Reward)
					continue
				}
				require.True(t, st.Terminated)
				require.False(t, st.Truncated)
				require.Equal(t, 1.0, st.Reward)
				require.Equal(t, true, st.Info[envs.InfoSuccess])
			}
			_, err = e.Step(envs.Boxed("up"))
			require.ErrorIs(t, err, envs.ErrNotReset)
		}
	}
}

func TestInvalidMovesGoOn(t *testing.T) {
	e := make1(t, "game:Sokoban-v0-easy")
	_, _, err := e.Reset(0)
	require.NoError(t, err)
	e.r = parseRoom(smallRoom)
	e.r.player = 2*6 + 1
	before := string(e.r.render(nil))
	st := step(t, e, envs.Boxed("right"))
	assert.Equal(t, true, st.Info[envs.InfoInvalid])
	assert.Equal(t, 0.0, st.Reward)
	assert.False(t, st.Done())
	assert.Contains(t, st.Obs, "cannot go right, the box would hit another box")
	assert.Equal(t, before, string(e.r.render(nil)))
	st = step(t, e, envs.Boxed("Left"))
	assert.Contains(t, st.Obs, "a wall is in the way")
	st = step(t, e, envs.Boxed("up"))
	assert.Nil(t, st.Info[envs.InfoInvalid])
	assert.Equal(t, "Moved up.", strings.SplitN(st.Obs, "\n", 2)[0])
}

func TestTurnLimitPartialReward(t *testing.T) {
	e := make1(t, "game:Sokoban-v0-easy", envs.With("max_turns", 2))
	_, info, err := e.Reset(0)
	require.NoError(t, err)
	assert.Equal(t, 2, info[envs.InfoMaxTurns])
	// Two boxes; push one onto its target in two moves.
	e.r = parseRoom(`
######
#@$_.#
#____#
#_$__#
#_.__#
######`)
	st := step(t, e, envs.Boxed("right"))
	assert.False(t, st.Done())
	assert.Equal(t, 0.0, st.Reward)
	st = step(t, e, envs.Boxed("right"))
	assert.True(t, st.Truncated)
	assert.False(t, st.Terminated)
	assert.Equal(t, 0.5, st.Reward, "one box of two on a target")
	assert.Equal(t, false, st.Info[envs.InfoSuccess])
	assert.Contains(t, st.Obs, "1 of 2 boxes")

	// At the limit with no box on a target the reward is 0.
	_, _, err = e.Reset(0)
	require.NoError(t, err)
	e.r = parseRoom(`
######
#@$_.#
#____#
#_$__#
#_.__#
######`)
	step(t, e, envs.Boxed("down"))
	st = step(t, e, envs.Boxed("down"))
	assert.True(t, st.Truncated)
	assert.Equal(t, 0.0, st.Reward)
}

func TestFormatErrorTerminates(t *testing.T) {
	for _, action := range []string{"up", `\boxed{north}`, `\boxed{u}`, `\boxed{}`, `\boxed{up down}`} {
		e := make1(t, "game:Sokoban-v0-easy")
		_, _, err := e.Reset(1)
		require.NoError(t, err)
		st := step(t, e, action)
		assert.Equal(t, envs.RewardFormatError, st.Reward, action)
		assert.True(t, st.Terminated, action)
		assert.Equal(t, true, st.Info[envs.InfoFormatError], action)
		assert.Equal(t, false, st.Info[envs.InfoSuccess], action)
	}
}

func TestStepBeforeReset(t *testing.T) {
	_, err := make1(t, "game:Sokoban-v0-easy").Step(envs.Boxed("up"))
	assert.ErrorIs(t, err, envs.ErrNotReset)
}

func TestSameSeedSameEpisode(t *testing.T) {
	for _, id := range ids {
		gamekittest.SameSeedSameEpisode(t, func() *Env { return make1(t, id) }, 20)
	}
}

func TestRandomDrawsBothLevels(t *testing.T) {
	e := make1(t, "game:Sokoban-v0-random")
	seen := map[int]int{}
	for seed := range uint64(40) {
		_, info, err := e.Reset(seed)
		require.NoError(t, err)
		seen[e.r.n] = info[envs.InfoMaxTurns].(int)
	}
	assert.Equal(t, map[int]int{6: 20, 8: 50}, seen)
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
				require.Nil(t, st.Info[envs.InfoInvalid], "the sampler avoids blocked moves when it can")
				if st.Done() {
					break
				}
			}
		}
	}
}

func TestOptions(t *testing.T) {
	r := registry(t)
	_, err := r.Make("game:Sokoban-v0-easy", envs.With("max_turns", 20000))
	require.ErrorContains(t, err, "max_turns = 20000 is out of range")
	_, err = r.Make("game:Sokoban-v0-easy", envs.With("boxes", 3))
	require.ErrorContains(t, err, "unknown option boxes")
	e := make1(t, "game:Sokoban-v0-easy", envs.With("style", "brief"))
	obs, _, err := e.Reset(0)
	require.NoError(t, err)
	assert.Len(t, strings.Split(obs, "\n"), 1+6, "one instruction line and 6 rows")
	assert.True(t, strings.HasPrefix(obs, "Sokoban, 20 turns:"))
	assert.Contains(t, e.Description(), "6×6")
}
