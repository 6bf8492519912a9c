package envs_test

import (
	"math/rand/v2"
	"testing"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/envtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Seed 0 hides the digit 8 in envtest.Toy.
const seed8 = 0

func TestToySeedHidesEight(t *testing.T) {
	require.Equal(t, 8, envtest.ToyTarget(seed8))
}

func step(t *testing.T, env envs.Env, action string) envs.Step {
	t.Helper()
	st, err := env.Step(action)
	require.NoError(t, err)
	return st
}

func TestTimeLimitTruncatesNotTerminates(t *testing.T) {
	w, err := envs.NewTimeLimit(envtest.NewToy(10), 3)
	require.NoError(t, err)
	_, info, err := w.Reset(seed8)
	require.NoError(t, err)
	assert.Equal(t, 3, info[envs.InfoMaxTurns], "Reset reports the tighter limit")

	for turn, a := range []string{`\boxed{1}`, `\boxed{2}`} {
		st := step(t, w, a)
		assert.False(t, st.Done(), "turn %d", turn+1)
	}
	st := step(t, w, `\boxed{3}`)
	assert.True(t, st.Truncated)
	assert.False(t, st.Terminated)
	assert.Equal(t, envtest.ToyMiss, st.Reward)
	assert.Equal(t, "t3 higher", st.Obs)

	_, err = w.Step(`\boxed{8}`)
	require.ErrorIs(t, err, envs.ErrNotReset)
}

func TestTimeLimitKeepsTermination(t *testing.T) {
	w, err := envs.NewTimeLimit(envtest.NewToy(10), 2)
	require.NoError(t, err)
	_, _, err = w.Reset(seed8)
	require.NoError(t, err)
	step(t, w, `\boxed{1}`)
	st := step(t, w, `\boxed{8}`) // solved on the last allowed turn
	assert.True(t, st.Terminated)
	assert.False(t, st.Truncated, "a solve at the limit is a termination, never both")
	assert.Equal(t, envtest.ToyWin, st.Reward)
}

func TestTimeLimitInnerLimitIsTighter(t *testing.T) {
	w, err := envs.NewTimeLimit(envtest.NewToy(2), 5)
	require.NoError(t, err)
	_, info, err := w.Reset(seed8)
	require.NoError(t, err)
	assert.Equal(t, 2, info[envs.InfoMaxTurns])
	step(t, w, `\boxed{1}`)
	st := step(t, w, `\boxed{1}`)
	assert.True(t, st.Truncated, "the inner env's own limit still truncates")
}

func TestTimeLimitBadLimit(t *testing.T) {
	_, err := envs.NewTimeLimit(envtest.NewToy(2), 0)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "max turns = 0")
	_, err = envs.NewTimeLimit(nil, 3)
	require.Error(t, err)
}

func TestEpisodeStatsOnEndingStepOnly(t *testing.T) {
	w := envs.NewEpisodeStats(envtest.NewToy(10))
	_, _, err := w.Reset(seed8)
	require.NoError(t, err)
	for _, a := range []string{`\boxed{1}`, `\boxed{9}`} {
		st := step(t, w, a)
		_, has := envs.SummaryOf(st.Info)
		assert.False(t, has, "statistics only on the step that ends the episode")
		assert.NotContains(t, st.Info, envs.InfoEpisodeReturn)
	}
	st := step(t, w, `\boxed{8}`)
	require.True(t, st.Terminated)
	sum, ok := envs.SummaryOf(st.Info)
	require.True(t, ok)
	want := 0.0
	for _, r := range []float64{envtest.ToyMiss, envtest.ToyMiss, envtest.ToyWin} {
		want += r
	}
	assert.Equal(t, envs.EpisodeSummary{Return: want, Turns: 3, Success: true}, sum)
	assert.InDelta(t, 0.9, sum.Return, 1e-12)
	assert.Equal(t, 3, st.Info[envs.InfoTurn], "the inner env's Info is kept")

	// The next episode starts from zero: a truncated loss, then a format error.
	_, _, err = w.Reset(seed8)
	require.NoError(t, err)
	for range 9 {
		step(t, w, `\boxed{1}`)
	}
	st = step(t, w, `\boxed{1}`)
	require.True(t, st.Truncated)
	sum, ok = envs.SummaryOf(st.Info)
	require.True(t, ok)
	assert.Equal(t, 10, sum.Turns)
	assert.False(t, sum.Success)
	assert.InDelta(t, 10*envtest.ToyMiss, sum.Return, 1e-12)

	_, _, err = w.Reset(seed8)
	require.NoError(t, err)
	st = step(t, w, "no box")
	sum, ok = envs.SummaryOf(st.Info)
	require.True(t, ok)
	assert.Equal(t, envs.EpisodeSummary{Return: envs.RewardFormatError, Turns: 1, Success: false}, sum)

	_, err = w.Step(`\boxed{1}`)
	require.ErrorIs(t, err, envs.ErrNotReset)
}

func TestSummaryOfRejectsPartialInfo(t *testing.T) {
	_, ok := envs.SummaryOf(nil)
	assert.False(t, ok)
	_, ok = envs.SummaryOf(envs.Info{envs.InfoEpisodeReturn: 1.0, envs.InfoEpisodeTurns: 2})
	assert.False(t, ok, "success missing")
	_, ok = envs.SummaryOf(envs.Info{envs.InfoEpisodeReturn: 1, envs.InfoEpisodeTurns: 2, envs.InfoEpisodeSuccess: true})
	assert.False(t, ok, "an int return is the wrong type")
}

func TestObservationHistoryExactFormat(t *testing.T) {
	w, err := envs.NewObservationHistory(envtest.NewToy(10), 0)
	require.NoError(t, err)
	obs, _, err := w.Reset(seed8)
	require.NoError(t, err)
	assert.Equal(t, "guess 1-9", obs)
	assert.Equal(t, "guess 1-9\nt1 higher", step(t, w, `\boxed{1}`).Obs)
	assert.Equal(t, "guess 1-9\nt1 higher\nt2 lower", step(t, w, `think... \boxed{9}`).Obs)
	st := step(t, w, `\boxed{8}`)
	assert.Equal(t, "guess 1-9\nt1 higher\nt2 lower\nt3 correct", st.Obs)
	assert.True(t, st.Terminated)

	obs, _, err = w.Reset(seed8)
	require.NoError(t, err)
	assert.Equal(t, "guess 1-9", obs, "Reset clears the history")
	assert.Equal(t, "guess 1-9\nt1 higher", step(t, w, `\boxed{2}`).Obs)
}

func TestObservationHistoryKeepsFirstAndLastK(t *testing.T) {
	w, err := envs.NewObservationHistory(envtest.NewToy(10), 2)
	require.NoError(t, err)
	_, _, err = w.Reset(seed8)
	require.NoError(t, err)
	step(t, w, `\boxed{1}`)
	assert.Equal(t, "guess 1-9\nt1 higher\nt2 lower", step(t, w, `\boxed{9}`).Obs)
	assert.Equal(t, "guess 1-9\nt2 lower\nt3 higher", step(t, w, `\boxed{3}`).Obs)
	assert.Equal(t, "guess 1-9\nt3 higher\nt4 invalid", step(t, w, `\boxed{0}`).Obs)
}

func TestActionObservationHistoryExactFormat(t *testing.T) {
	w, err := envs.NewActionObservationHistory(envtest.NewToy(10), 0)
	require.NoError(t, err)
	_, _, err = w.Reset(seed8)
	require.NoError(t, err)
	assert.Equal(t, "guess 1-9\n> \\boxed{1}\nt1 higher", step(t, w, `\boxed{1}`).Obs)
	assert.Equal(t, "guess 1-9\n> \\boxed{1}\nt1 higher\n> so \\boxed{9}\nt2 lower", step(t, w, `so \boxed{9}`).Obs)

	k, err := envs.NewActionObservationHistory(envtest.NewToy(10), 1)
	require.NoError(t, err)
	_, _, err = k.Reset(seed8)
	require.NoError(t, err)
	step(t, k, `\boxed{1}`)
	step(t, k, `\boxed{9}`)
	assert.Equal(t, "guess 1-9\n> \\boxed{3}\nt3 higher", step(t, k, `\boxed{3}`).Obs)
}

func TestHistoryNegativeKeep(t *testing.T) {
	_, err := envs.NewObservationHistory(envtest.NewToy(3), -1)
	require.ErrorContains(t, err, "keep = -1")
	_, err = envs.NewActionObservationHistory(envtest.NewToy(3), -2)
	require.ErrorContains(t, err, "keep = -2")
}

// Over many random episodes, each history observation is the previous one
// plus the inner env's new observation (and the action), exactly.
func TestHistoriesGrowByOneTurn(t *testing.T) {
	for seed := range uint64(50) {
		plain := envtest.NewToy(6)
		oh, err := envs.NewObservationHistory(envtest.NewToy(6), 0)
		require.NoError(t, err)
		aoh, err := envs.NewActionObservationHistory(envtest.NewToy(6), 0)
		require.NoError(t, err)
		first, _, err := plain.Reset(seed)
		require.NoError(t, err)
		_, _, err = oh.Reset(seed)
		require.NoError(t, err)
		_, _, err = aoh.Reset(seed)
		require.NoError(t, err)
		prevO, prevA := first, first
		r := rand.New(rand.NewPCG(seed, 9))
		for {
			a := plain.SampleAction(r)
			want := step(t, plain, a)
			gotO := step(t, oh, a)
			gotA := step(t, aoh, a)
			require.Equal(t, prevO+"\n"+want.Obs, gotO.Obs)
			require.Equal(t, prevA+"\n> "+a+"\n"+want.Obs, gotA.Obs)
			for _, got := range []envs.Step{gotO, gotA} {
				require.Equal(t, want.Reward, got.Reward)
				require.Equal(t, want.Terminated, got.Terminated)
				require.Equal(t, want.Truncated, got.Truncated)
				require.Equal(t, want.Info, got.Info)
			}
			prevO, prevA = gotO.Obs, gotA.Obs
			if want.Done() {
				break
			}
		}
	}
}

func TestWrappersForwardOptionalInterfaces(t *testing.T) {
	toy := envtest.NewToy(5)
	tl, err := envs.NewTimeLimit(toy, 4)
	require.NoError(t, err)
	oh, err := envs.NewObservationHistory(tl, 0)
	require.NoError(t, err)
	aoh, err := envs.NewActionObservationHistory(oh, 3)
	require.NoError(t, err)
	stats := envs.NewEpisodeStats(aoh)

	assert.Same(t, toy, envs.Unwrapped(stats))
	assert.Same(t, envs.Env(aoh), stats.Unwrap())
	assert.Same(t, envs.Env(tl), oh.Unwrap())

	s, ok := envs.SamplerOf(stats)
	require.True(t, ok)
	r1, r2 := rand.New(rand.NewPCG(1, 2)), rand.New(rand.NewPCG(1, 2))
	for range 20 {
		require.Equal(t, toy.SampleAction(r1), s.SampleAction(r2))
	}
	assert.Equal(t, envs.RewardFormatError, stats.FormatErrorReward())
	assert.Equal(t, "", stats.Description())

	require.NoError(t, stats.Close())
	assert.Equal(t, 1, toy.Closes(), "Close reaches the innermost env once")
}

// bare has no optional interfaces at all.
type bare struct{ envs.Env }

func TestSamplerOfSeesThroughWrappers(t *testing.T) {
	inner := bare{envtest.NewToy(3)}
	w := envs.NewEpisodeStats(inner)
	_, ok := envs.SamplerOf(w)
	assert.False(t, ok, "a wrapper over an env without SampleAction cannot sample")
	assert.Equal(t, "", w.SampleAction(rand.New(rand.NewPCG(1, 1))))
	assert.NoError(t, w.Close(), "Close of an env that has none is a no-op")
}

func TestWrappedToyPassesCheckEnv(t *testing.T) {
	envtest.CheckEnv(t, func() (envs.Env, error) {
		tl, err := envs.NewTimeLimit(envtest.NewToy(20), 5)
		if err != nil {
			return nil, err
		}
		return envs.NewObservationHistory(envs.NewEpisodeStats(tl), 3)
	})
}

// WithHistory picks the wrapper a mode names; none (or "") is the env
// itself, and an unknown mode is an error naming the allowed ones.
func TestWithHistory(t *testing.T) {
	inner := envtest.NewToy(10)
	for _, mode := range []string{"", envs.HistoryNone} {
		e, err := envs.WithHistory(inner, mode, 0)
		require.NoError(t, err)
		assert.Same(t, inner, e)
	}
	e, err := envs.WithHistory(inner, envs.HistoryObservations, 2)
	require.NoError(t, err)
	assert.IsType(t, &envs.ObservationHistory{}, e)
	e, err = envs.WithHistory(inner, envs.HistoryActions, 0)
	require.NoError(t, err)
	assert.IsType(t, &envs.ActionObservationHistory{}, e)
	_, err = envs.WithHistory(inner, "everything", 0)
	assert.EqualError(t, err, `history "everything": allowed none, observations, actions`)
	_, err = envs.WithHistory(inner, envs.HistoryActions, -1)
	assert.Error(t, err)
}
