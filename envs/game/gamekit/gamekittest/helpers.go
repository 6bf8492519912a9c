package gamekittest

import (
	"math/rand/v2"
	"testing"

	"github.com/gemgo/gemgo/envs"
	"github.com/stretchr/testify/require"
)

// Registry returns a new registry holding the ids that register adds; it
// fails t when registering fails.
func Registry(t testing.TB, register func(*envs.Registry) error) *envs.Registry {
	t.Helper()
	r := envs.NewRegistry()
	require.NoError(t, register(r))
	return r
}

// Make makes id with opts from a registry of register and returns it as
// the game's own type E; it fails t when Make fails or the env is not an E.
func Make[E envs.Env](t testing.TB, register func(*envs.Registry) error, id string, opts ...envs.Option) E {
	t.Helper()
	env, err := Registry(t, register).Make(id, opts...)
	require.NoError(t, err)
	e, ok := env.(E)
	require.True(t, ok, "%s made a %T", id, env)
	return e
}

// Step plays action and returns the step; it fails t when Step returns an
// error or the step's Info lacks envs.InfoTurn.
func Step(t testing.TB, e envs.Env, action string) envs.Step {
	t.Helper()
	st, err := e.Step(action)
	require.NoError(t, err)
	require.Contains(t, st.Info, envs.InfoTurn)
	return st
}

// New returns newEnv(cfg), failing t when it returns an error: for a
// game's constructor, as in New(t, hangman.New, cfg).
func New[C, E any](t testing.TB, newEnv func(C) (E, error), cfg C) E {
	t.Helper()
	e, err := newEnv(cfg)
	require.NoError(t, err)
	return e
}

// SamplingEnv is an env that draws its own random valid actions.
type SamplingEnv interface {
	envs.Env
	envs.ActionSampler
}

// SameSeedSameEpisode plays seeds 0 … seeds−1 on two envs from newEnv,
// each stepping with its own SampleAction draws from equal RNGs, and
// requires equal observations and steps to the end of every episode.
func SameSeedSameEpisode[E SamplingEnv](t testing.TB, newEnv func() E, seeds uint64) {
	t.Helper()
	a, b := newEnv(), newEnv()
	for seed := range seeds {
		oa, _, _ := a.Reset(seed)
		ob, _, _ := b.Reset(seed)
		require.Equal(t, oa, ob)
		ra, rb := rand.New(rand.NewPCG(seed, 2)), rand.New(rand.NewPCG(seed, 2))
		for {
			sa, _ := a.Step(a.SampleAction(ra))
			sb, _ := b.Step(b.SampleAction(rb))
			require.Equal(t, sa, sb)
			if sa.Done() {
				break
			}
		}
	}
}
