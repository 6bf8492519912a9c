package game2048

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/game/gamekit/gamekittest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var ids = []string{"game:Game2048-v0-easy", "game:Game2048-v0-hard", "game:Game2048-v0-random"}

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

func TestResetBoard(t *testing.T) {
	e := make1(t, "game:Game2048-v0-easy")
	fours := 0
	for seed := range uint64(500) {
		obs, info, err := e.Reset(seed)
		require.NoError(t, err)
		require.Equal(t, 50, info[envs.InfoMaxTurns])
		tiles := 0
		for _, x := range e.b {
			if x != 0 {
				tiles++
				require.Contains(t, []int{2, 4}, x)
				if x == 4 {
					fours++
				}
			}
		}
		require.Equal(t, 2, tiles)
		require.True(t, strings.HasSuffix(obs, string(e.b.render(nil))))
	}
	assert.InDelta(t, 0.1, float64(fours)/1000, 0.04, "about one tile in ten is a 4")
}

func countTiles(b board) int {
	n := 0
	for _, x := range b {
		if x != 0 {
			n++
		}
	}
	return n
}

// setBoard puts the running episode of e on board b, with the given start
// and credited maxima.
func setBoard(e *Env, b board, startMax, credited int) {
	e.b, e.startMax, e.credited = b, startMax, credited
}

func TestRewardsExact(t *testing.T) {
	e := make1(t, "game:Game2048-v0-easy")
	_, _, err := e.Reset(1)
	require.NoError(t, err)
	setBoard(e, board{2, 2}, 2, 2)
	st := step(t, e, envs.Boxed("left"))
	assert.InDelta(t, 1.0/5, st.Reward, 1e-12, "2 → 4 with target 64 from start max 2: (2−1)/(6−1)")
	assert.False(t, st.Done())
	assert.Equal(t, 4, e.b[0])
	assert.Equal(t, 2, countTiles(e.b), "the merged tile and one new tile")
	assert.Equal(t, 4, e.credited)

	// A merge below the credited maximum pays nothing.
	setBoard(e, board{4, 4, 0, 16}, 2, 16)
	st = step(t, e, envs.Boxed("LEFT"))
	assert.Equal(t, 0.0, st.Reward)
	assert.Equal(t, 16, e.credited)

	// Two merges in one move: only the largest counts, from the credit.
	setBoard(e, board{8, 8, 16, 16}, 4, 16)
	st = step(t, e, envs.Boxed("right"))
	assert.InDelta(t, (5-4)/(6-2.0), st.Reward, 1e-12)

	// Reaching the target ends the episode with success.
	setBoard(e, board{32, 32, 2, 4, 4, 2}, 2, 32)
	st = step(t, e, envs.Boxed("left"))
	assert.InDelta(t, 1.0/5, st.Reward, 1e-12)
	assert.True(t, st.Terminated)
	assert.Equal(t, true, st.Info[envs.InfoSuccess])
	assert.Contains(t, st.Obs, "you win")
}

func TestNoOpMoveIsInvalid(t *testing.T) {
	e := make1(t, "game:Game2048-v0-easy")
	_, _, err := e.Reset(1)
	require.NoError(t, err)
	b := board{2, 4, 0, 0, 8}
	setBoard(e, b, 4, 8)
	st := step(t, e, envs.Boxed("left"))
	assert.Equal(t, 0.0, st.Reward)
	assert.Equal(t, true, st.Info[envs.InfoInvalid])
	assert.False(t, st.Done())
	assert.Equal(t, b, e.b, "no tile appears after a no-op")
	assert.Contains(t, st.Obs, "nothing can slide left")
}

func TestNoMoveLeftEnds(t *testing.T) {
	e := make1(t, "game:Game2048-v0-easy")
	_, _, err := e.Reset(1)
	require.NoError(t, err)
	// After left, row 3 is 8 16 32 and a 2 or 4 fills the last cell:
	// nothing can merge anywhere.
	setBoard(e, board{
		2, 4, 2, 4,
		4, 2, 4, 2,
		2, 4, 2, 8,
		0, 8, 16, 32,
	}, 2, 32)
	st := step(t, e, envs.Boxed("left"))
	assert.Equal(t, 0.0, st.Reward)
	assert.True(t, st.Terminated)
	assert.False(t, st.Truncated)
	assert.Equal(t, false, st.Info[envs.InfoSuccess])
	assert.Contains(t, st.Obs, "No move is possible")
}

// TestRandomPlayRewards plays sampled moves with no turn limit to speak of:
// every episode ends by the rules, and its rewards sum to the log-scaled
// progress of the largest merged tile: exactly 1 when it reaches the target.
func TestRandomPlayRewards(t *testing.T) {
	for _, id := range []string{"game:Game2048-v0-easy", "game:Game2048-v0-random"} {
		e := make1(t, id, envs.With("max_turns", 5000))
		rng := rand.New(rand.NewPCG(3, 3))
		wins := 0
		for seed := range uint64(60) {
			_, _, err := e.Reset(seed)
			require.NoError(t, err)
			start := e.startMax
			total := 0.0
			var st envs.Step
			for !st.Done() {
				require.True(t, e.b.canMove(), "an active episode always has a move")
				st = step(t, e, e.SampleAction(rng))
				require.Nil(t, st.Info[envs.InfoInvalid], "the sampler picks changing moves")
				total += st.Reward
			}
			require.True(t, st.Terminated)
			want := (math.Log2(float64(e.credited)) - math.Log2(float64(start))) /
				(math.Log2(float64(e.lv.Target)) - math.Log2(float64(start)))
			require.InDelta(t, want, total, 1e-9, "seed %d", seed)
			if st.Info[envs.InfoSuccess] == true {
				wins++
				require.InDelta(t, 1.0, total, 1e-9)
				require.Equal(t, e.lv.Target, e.b.maxTile())
			} else {
				require.False(t, e.b.canMove())
				require.Less(t, e.b.maxTile(), e.lv.Target)
			}
		}
		assert.Greater(t, wins, 10, "%s: random play often reaches the target", id)
	}
}

func TestFormatErrorTerminates(t *testing.T) {
	for _, action := range []string{"left", `\boxed{west}`, `\boxed{left right}`, `\boxed{}`, `\boxed{l}`} {
		e := make1(t, "game:Game2048-v0-easy")
		_, _, err := e.Reset(1)
		require.NoError(t, err)
		st := step(t, e, action)
		assert.Equal(t, envs.RewardFormatError, st.Reward, action)
		assert.True(t, st.Terminated, action)
		assert.Equal(t, true, st.Info[envs.InfoFormatError], action)
		assert.Equal(t, false, st.Info[envs.InfoSuccess], action)
		_, err = e.Step(envs.Boxed("left"))
		assert.ErrorIs(t, err, envs.ErrNotReset)
	}
}

func TestTurnLimitTruncates(t *testing.T) {
	e := make1(t, "game:Game2048-v0-hard", envs.With("max_turns", 3))
	_, info, err := e.Reset(5)
	require.NoError(t, err)
	assert.Equal(t, 3, info[envs.InfoMaxTurns])
	rng := rand.New(rand.NewPCG(1, 1))
	var st envs.Step
	for k := 1; k <= 3; k++ {
		st = step(t, e, e.SampleAction(rng))
		assert.Equal(t, k, st.Info[envs.InfoTurn])
		assert.Equal(t, k == 3, st.Done())
	}
	assert.True(t, st.Truncated)
	assert.False(t, st.Terminated)
	assert.Equal(t, false, st.Info[envs.InfoSuccess])
}

func TestStepBeforeReset(t *testing.T) {
	_, err := make1(t, "game:Game2048-v0-easy").Step(envs.Boxed("up"))
	assert.ErrorIs(t, err, envs.ErrNotReset)
}

func TestSameSeedSameEpisode(t *testing.T) {
	for _, id := range ids {
		gamekittest.SameSeedSameEpisode(t, func() *Env { return make1(t, id) }, 20)
	}
}

func TestRandomDrawsEveryTarget(t *testing.T) {
	e := make1(t, "game:Game2048-v0-random")
	seen := map[int]int{}
	for seed := range uint64(60) {
		_, info, err := e.Reset(seed)
		require.NoError(t, err)
		seen[e.lv.Target] = info[envs.InfoMaxTurns].(int)
	}
	assert.Equal(t, map[int]int{16: 20, 32: 30, 64: 50}, seen)
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
				if step(t, e, a).Done() {
					break
				}
			}
		}
	}
}

func TestOptions(t *testing.T) {
	r := registry(t)
	_, err := r.Make("game:Game2048-v0-easy", envs.With("max_turns", 0.5))
	require.ErrorContains(t, err, "max_turns")
	_, err = r.Make("game:Game2048-v0-easy", envs.With("target", 128))
	require.ErrorContains(t, err, "unknown option target")
	e := make1(t, "game:Game2048-v0-easy", envs.With("style", "brief"))
	obs, _, err := e.Reset(0)
	require.NoError(t, err)
	assert.Len(t, strings.Split(obs, "\n"), 1+4, "one instruction line and 4 rows")
	assert.True(t, strings.HasPrefix(obs, "2048 4x4: reach 64 in 50 turns."))
	assert.Contains(t, e.Description(), "64")
}
