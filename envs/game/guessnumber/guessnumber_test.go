package guessnumber

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/game/gamekit/gamekittest"
)

const (
	easyID   = "game:GuessTheNumber-v0-easy"
	hardID   = "game:GuessTheNumber-v0-hard"
	randomID = "game:GuessTheNumber-v0-random"
)

func registry(t testing.TB) *envs.Registry {
	t.Helper()
	return gamekittest.Registry(t, Register)
}

func makeEnv(t testing.TB, id string, opts ...envs.Option) envs.Env {
	t.Helper()
	return gamekittest.Make[envs.Env](t, Register, id, opts...)
}

func brief() envs.Option { return envs.With("style", "brief") }

func step(t testing.TB, env envs.Env, action string) envs.Step {
	t.Helper()
	return gamekittest.Step(t, env, action)
}

// finalTarget plays seed to the end with always-too-low guesses and returns
// the target revealed in the last Info.
func finalTarget(t *testing.T, id string, seed uint64) int {
	t.Helper()
	env := makeEnv(t, id)
	_, _, err := env.Reset(seed)
	require.NoError(t, err)
	for {
		st := step(t, env, envs.Boxed("-5"))
		if st.Done() {
			return st.Info["target"].(int)
		}
	}
}

func TestBinarySearchWinsEveryTargetOnHard(t *testing.T) {
	env := makeEnv(t, hardID, brief())
	covered := map[int]bool{}
	for seed := uint64(0); len(covered) < 50 && seed < 5000; seed++ {
		obs, info, err := env.Reset(seed)
		require.NoError(t, err)
		require.Equal(t, "Guess the number between 1 and 50 in 7 turns. Answer \\boxed{n}.", obs)
		lo, hi := info["min"].(int), info["max"].(int)
		total, guesses := 0.0, 0
		var last envs.Step
		for !last.Done() {
			mid := lo + (hi-lo)/2
			last = step(t, env, "I will bisect: "+envs.Boxed(strconv.Itoa(mid)))
			guesses++
			total += last.Reward
			switch last.Obs {
			case strconv.Itoa(mid) + ": higher":
				lo = mid + 1
			case strconv.Itoa(mid) + ": lower":
				hi = mid - 1
			case strconv.Itoa(mid) + ": correct":
			default:
				t.Fatalf("seed %d: unexpected feedback %q", seed, last.Obs)
			}
		}
		target := last.Info["target"].(int)
		covered[target] = true
		require.True(t, last.Terminated, "target %d", target)
		require.False(t, last.Truncated, "target %d", target)
		require.Equal(t, true, last.Info[envs.InfoSuccess], "target %d", target)
		require.LessOrEqual(t, guesses, 6, "target %d", target)
		require.Equal(t, 1.0, total, "target %d", target)
	}
	require.Len(t, covered, 50, "seeds 0..4999 must draw every target of 1-50")
	for n := 1; n <= 50; n++ {
		require.True(t, covered[n], "target %d never drawn", n)
	}
}

func TestOutOfRangeGuessContinues(t *testing.T) {
	for _, g := range []string{"0", "51", "-3", "99999999999999999999"} {
		env := makeEnv(t, hardID, brief())
		_, _, err := env.Reset(1)
		require.NoError(t, err)
		st := step(t, env, envs.Boxed(g))
		assert.Equal(t, 0.0, st.Reward, g)
		assert.False(t, st.Done(), g)
		assert.Equal(t, true, st.Info[envs.InfoInvalid], g)
		assert.Nil(t, st.Info[envs.InfoFormatError], g)
		assert.Equal(t, g+": out of range 1-50", st.Obs)
		assert.Equal(t, 1, st.Info[envs.InfoTurn])
		assert.Nil(t, st.Info["target"], "the target is only revealed at the end")
	}
}

func TestFormatErrorTerminates(t *testing.T) {
	for _, a := range []string{"five", "the answer is 5", `\boxed{abc}`, `\boxed{5.5}`, `\boxed{}`, `\boxed{1,000}`, `\boxed{5`, `\boxed{+}`, `\boxed{5} then \boxed{x}`} {
		env := makeEnv(t, easyID)
		_, _, err := env.Reset(3)
		require.NoError(t, err)
		st := step(t, env, a)
		assert.Equal(t, envs.RewardFormatError, st.Reward, a)
		assert.True(t, st.Terminated, a)
		assert.False(t, st.Truncated, a)
		assert.Equal(t, true, st.Info[envs.InfoFormatError], a)
		assert.Equal(t, false, st.Info[envs.InfoSuccess], a)
		_, err = env.Step(envs.Boxed("5"))
		assert.ErrorIs(t, err, envs.ErrNotReset, a)
	}
}

func TestLastBoxedCounts(t *testing.T) {
	env := makeEnv(t, easyID, brief())
	_, _, err := env.Reset(3)
	require.NoError(t, err)
	st := step(t, env, `\boxed{abc} no wait \boxed{ 11 }`)
	assert.Equal(t, "11: out of range 1-10", st.Obs)
	assert.Equal(t, 11, st.Info["guess"])
}

func TestTurnLimitPartialReward(t *testing.T) {
	for seed := uint64(0); seed < 30; seed++ {
		target := finalTarget(t, hardID, seed)
		// Six wrong in-range guesses, then a last guess at distance d.
		var wrong []int
		for g := 1; len(wrong) < 6; g++ {
			if g != target {
				wrong = append(wrong, g)
			}
		}
		last := target + 3
		if last > 50 {
			last = target - 3
		}
		env := makeEnv(t, hardID, brief())
		_, _, err := env.Reset(seed)
		require.NoError(t, err)
		for _, g := range wrong {
			st := step(t, env, envs.Boxed(strconv.Itoa(g)))
			require.False(t, st.Done())
			require.Equal(t, 0.0, st.Reward)
		}
		st := step(t, env, envs.Boxed(strconv.Itoa(last)))
		require.True(t, st.Truncated)
		require.False(t, st.Terminated)
		require.InDelta(t, 1-3.0/49, st.Reward, 1e-12)
		require.Equal(t, 7, st.Info[envs.InfoTurn])
		require.Equal(t, false, st.Info[envs.InfoSuccess])
		require.Equal(t, target, st.Info["target"])
		require.True(t, strings.HasSuffix(st.Obs, "; out of turns"), st.Obs)
		_, err = env.Step(envs.Boxed("1"))
		require.ErrorIs(t, err, envs.ErrNotReset)
	}
}

func TestNoPartialCredit(t *testing.T) {
	for seed := uint64(0); seed < 20; seed++ {
		target := finalTarget(t, easyID, seed)
		env := makeEnv(t, easyID, brief(), envs.With("partial_credit", false))
		_, _, err := env.Reset(seed)
		require.NoError(t, err)
		var st envs.Step
		for g, n := 1, 0; n < 4; g++ {
			if g == target {
				continue
			}
			st = step(t, env, envs.Boxed(strconv.Itoa(g)))
			n++
		}
		require.True(t, st.Truncated)
		require.Equal(t, 0.0, st.Reward, "a lost game pays nothing without partial credit")
		// A win still pays 1.
		_, _, err = env.Reset(seed)
		require.NoError(t, err)
		st = step(t, env, envs.Boxed(strconv.Itoa(target)))
		require.Equal(t, 1.0, st.Reward)
	}
	_, err := registry(t).Make(easyID, envs.With("partial_credit", "maybe"))
	require.ErrorContains(t, err, "partial_credit")
}

func TestTurnLimitOutOfRangeAndRepeated(t *testing.T) {
	target := finalTarget(t, easyID, 9)
	other := 1
	if other == target {
		other = 2
	}
	// Out of range on the last turn: 0.
	env := makeEnv(t, easyID, brief())
	_, _, err := env.Reset(9)
	require.NoError(t, err)
	for range 3 {
		require.False(t, step(t, env, envs.Boxed(strconv.Itoa(other))).Done())
	}
	st := step(t, env, envs.Boxed("0"))
	require.True(t, st.Truncated)
	require.Equal(t, 0.0, st.Reward)
	// A repeated in-range guess on the last turn is still scored by distance.
	_, _, err = env.Reset(9)
	require.NoError(t, err)
	st = step(t, env, envs.Boxed(strconv.Itoa(other)))
	require.Equal(t, strconv.Itoa(other)+": "+map[bool]string{true: "higher", false: "lower"}[target > other], st.Obs)
	st = step(t, env, envs.Boxed(strconv.Itoa(other)))
	require.Equal(t, strconv.Itoa(other)+": already guessed", st.Obs)
	require.Equal(t, true, st.Info[envs.InfoInvalid])
	require.Equal(t, 0.0, st.Reward)
	step(t, env, envs.Boxed(strconv.Itoa(other)))
	st = step(t, env, envs.Boxed(strconv.Itoa(other)))
	require.True(t, st.Truncated)
	require.InDelta(t, 1-math.Abs(float64(other-target))/9, st.Reward, 1e-12)
}

func TestStepBeforeReset(t *testing.T) {
	env := makeEnv(t, easyID)
	_, err := env.Step(envs.Boxed("3"))
	require.ErrorIs(t, err, envs.ErrNotReset)
}

func TestDeterministic(t *testing.T) {
	for _, id := range []string{easyID, hardID, randomID} {
		a, b := makeEnv(t, id), makeEnv(t, id)
		targets := map[int]bool{}
		for seed := uint64(0); seed < 50; seed++ {
			oa, ia, err := a.Reset(seed)
			require.NoError(t, err)
			ob, ib, err := b.Reset(seed)
			require.NoError(t, err)
			require.Equal(t, oa, ob)
			require.Equal(t, ia, ib)
			sa, sb := step(t, a, `\boxed{-1}`), step(t, b, `\boxed{-1}`)
			require.Equal(t, sa, sb)
			targets[finalTarget(t, id, seed)] = true
		}
		require.Greater(t, len(targets), 4, "%s: seeds must give different targets", id)
	}
}

func TestRandomLevelDraws(t *testing.T) {
	env := makeEnv(t, randomID, brief())
	mins, widths := map[int]bool{}, map[int]bool{}
	for seed := uint64(0); seed < 2000; seed++ {
		obs, info, err := env.Reset(seed)
		require.NoError(t, err)
		lo, hi, turns := info["min"].(int), info["max"].(int), info[envs.InfoMaxTurns].(int)
		require.GreaterOrEqual(t, lo, 1)
		require.LessOrEqual(t, lo, 10)
		require.GreaterOrEqual(t, hi, lo+5)
		require.LessOrEqual(t, hi, lo+50)
		require.Equal(t, int(math.Ceil(math.Sqrt(float64(hi-lo))))+1, turns)
		require.Equal(t, "Guess the number between "+strconv.Itoa(lo)+" and "+strconv.Itoa(hi)+" in "+strconv.Itoa(turns)+" turns. Answer \\boxed{n}.", obs)
		mins[lo], widths[hi-lo] = true, true
	}
	require.Len(t, mins, 10)
	require.Len(t, widths, 46)

	over := makeEnv(t, randomID, envs.With("max_turns", 3))
	_, info, err := over.Reset(5)
	require.NoError(t, err)
	require.Equal(t, 3, info[envs.InfoMaxTurns])
}

func TestSampleActionParsesAndIsInRange(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, id := range []string{easyID, hardID, randomID} {
		env := makeEnv(t, id)
		s := env.(envs.ActionSampler)
		_ = s.SampleAction(r) // before Reset too
		for seed := uint64(0); seed < 300; seed++ {
			_, info, err := env.Reset(seed)
			require.NoError(t, err)
			a := s.SampleAction(r)
			st := step(t, env, a)
			require.Nil(t, st.Info[envs.InfoFormatError], "%s: %q", id, a)
			require.Nil(t, st.Info[envs.InfoInvalid], "%s: %q", id, a)
			g := st.Info["guess"].(int)
			require.GreaterOrEqual(t, g, info["min"].(int))
			require.LessOrEqual(t, g, info["max"].(int))
		}
	}
}

// With sample: interval every random guess lies in the interval the hints
// have left, so random play never repeats a guess or wastes one outside it
// and wins more often than over the whole range; the default keeps GEM's
// draw over the whole range.
func TestSampleIntervalKeepsToTheHints(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	wins := map[string]int{}
	for _, mode := range []string{"range", "interval"} {
		env := makeEnv(t, hardID, envs.With("sample", mode), envs.With("partial_credit", false), brief())
		s := env.(envs.ActionSampler)
		for seed := uint64(0); seed < 400; seed++ {
			_, _, err := env.Reset(seed)
			require.NoError(t, err)
			left, right, outside := 1, 50, false
			for {
				st := step(t, env, s.SampleAction(r))
				g := st.Info["guess"].(int)
				if g < left || g > right {
					outside = true
				}
				if mode == "interval" {
					require.False(t, outside, "seed %d: guess %d outside [%d, %d]", seed, g, left, right)
					require.Nil(t, st.Info[envs.InfoInvalid], "seed %d: guess %d", seed, g)
				}
				if st.Terminated || st.Truncated {
					if st.Info[envs.InfoSuccess] == true {
						wins[mode]++
					}
					break
				}
				if strings.HasSuffix(st.Obs, "higher") {
					left = max(left, g+1)
				} else {
					right = min(right, g-1)
				}
			}
		}
	}
	// 400 games: over the range about 0.18 win (docs/results.md), in the
	// interval about 0.72; the bounds leave several standard deviations.
	t.Logf("wins of 400: %v", wins)
	assert.Less(t, wins["range"], 120, "range")
	assert.Greater(t, wins["interval"], 240, "interval")
	_, err := registry(t).Make(hardID, envs.With("sample", "middle"))
	require.ErrorContains(t, err, `option sample = "middle": allowed values are range, interval`)
}

func TestGEMStyleText(t *testing.T) {
	env := makeEnv(t, easyID)
	obs, info, err := env.Reset(0)
	require.NoError(t, err)
	require.Equal(t, 4, info[envs.InfoMaxTurns])
	require.Contains(t, obs, "between 1 and 10")
	require.Contains(t, obs, "4 turns")
	require.Contains(t, obs, `\boxed{5}`)
	st := step(t, env, envs.Boxed("0"))
	require.Equal(t, "Turn 1: you guessed 0, which is outside the range 1 to 10. Enter your next guess.", st.Obs)
}

func TestCustomRangeOptions(t *testing.T) {
	env := makeEnv(t, easyID, envs.With("min", 100), envs.With("max", 103), envs.With("max_turns", 2), brief())
	obs, info, err := env.Reset(4)
	require.NoError(t, err)
	require.Equal(t, "Guess the number between 100 and 103 in 2 turns. Answer \\boxed{n}.", obs)
	require.Equal(t, 2, info[envs.InfoMaxTurns])
	require.Equal(t, "Guess a secret number between 100 and 103 from higher/lower hints within 2 turns.", env.(envs.Describer).Description())
}

func TestBadOptions(t *testing.T) {
	r := registry(t)
	for _, tc := range []struct {
		id   string
		opts []envs.Option
		want string
	}{
		{easyID, []envs.Option{envs.With("max_turns", 0)}, "max_turns"},
		{easyID, []envs.Option{envs.With("max_turns", "many")}, "max_turns"},
		{easyID, []envs.Option{envs.With("style", "verbose")}, "style"},
		{easyID, []envs.Option{envs.With("min", 10), envs.With("max", 10)}, "max = 10 must be greater than min = 10"},
		{hardID, []envs.Option{envs.With("max", 2_000_000_000)}, "max"},
		{randomID, []envs.Option{envs.With("min", 3)}, "unknown option min"},
		{hardID, []envs.Option{envs.With("colour", "red")}, "unknown option colour"},
	} {
		_, err := r.Make(tc.id, tc.opts...)
		require.Error(t, err, "%v", tc.opts)
		require.Contains(t, err.Error(), tc.want)
	}
	_, err := New(Config{Min: 5, Max: 1, MaxTurns: 3})
	require.ErrorContains(t, err, "max = 1 must be greater than min = 5")
}

func TestSolverWinsEveryLevel(t *testing.T) {
	for _, id := range []string{"game:GuessTheNumber-v0-easy", hardID, "game:GuessTheNumber-v0-random"} {
		env := makeEnv(t, id)
		g := envs.Unwrapped(env).(*Env)
		s := NewSolver(g)
		for seed := uint64(0); seed < 300; seed++ {
			_, _, err := env.Reset(seed)
			require.NoError(t, err)
			var last envs.Step
			for !last.Done() {
				a, err := s.Act("")
				require.NoError(t, err)
				last = step(t, env, a)
				require.NotEqual(t, true, last.Info[envs.InfoInvalid], "%s seed %d: the solver repeated a guess or left the range", id, seed)
			}
			require.Equal(t, true, last.Info[envs.InfoSuccess], "%s seed %d", id, seed)
		}
	}
}
