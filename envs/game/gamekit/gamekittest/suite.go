package gamekittest

import (
	"math/rand/v2"
	"testing"

	"github.com/gemgo/gemgo/envs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Levels are the level names every game registers, in order.
var Levels = []string{"easy", "hard", "random"}

// CheckRegister is the registration test every game package runs:
//
//   - register adds exactly prefix+easy, prefix+hard and prefix+random, in
//     that order, each with a one-line description;
//   - registering a second time into the same registry fails;
//   - every id makes an env in both styles ("gem", "brief"), and the
//     max_turns option sets the limit that Reset announces;
//   - a bad style, a negative max_turns and an unknown option are errors
//     naming the option.
//
// The conformance suite (envtest.CheckEnv) runs over every id of the
// built-in registry in envs/builtin, so it is not repeated here.
func CheckRegister(t testing.TB, register func(*envs.Registry) error, prefix string) {
	t.Helper()
	r := Registry(t, register)
	want := make([]string, len(Levels))
	for i, l := range Levels {
		want[i] = prefix + l
	}
	require.Equal(t, want, r.IDs(), "a game registers its -easy, -hard and -random ids")
	assert.Error(t, register(r), "registering twice must fail")
	for _, id := range want {
		desc := r.Description(id)
		assert.NotEmpty(t, desc, "%s: a description for play -list", id)
		assert.NotContains(t, desc, "\n", "%s: the description is one line", id)
		for _, style := range []string{"gem", "brief"} {
			env, err := r.Make(id, envs.With("style", style), envs.With("max_turns", 77))
			require.NoError(t, err, "%s style %s", id, style)
			obs, info, err := env.Reset(1)
			require.NoError(t, err, "%s style %s", id, style)
			assert.NotEmpty(t, obs, id)
			assert.Equal(t, 77, info[envs.InfoMaxTurns], "%s: max_turns=77 sets the limit", id)
		}
		for opt, v := range map[string]any{"style": "verbose", "max_turns": -1, "no_such_option": 1} {
			_, err := r.Make(id, envs.With(opt, v))
			assert.ErrorContains(t, err, opt, "%s: %s=%v", id, opt, v)
		}
	}
}

// Actions picks the action of a benchmark's step from the env, the
// benchmark's RNG and the turn within the episode (0 at its first step).
type Actions func(env envs.Env, r *rand.Rand, turn int) string

// Cycle plays actions in order from each episode's start, round and round.
func Cycle(actions ...string) Actions {
	return func(_ envs.Env, _ *rand.Rand, turn int) string { return actions[turn%len(actions)] }
}

// Sampled plays the env's own SampleAction draws.
func Sampled() Actions {
	return func(env envs.Env, r *rand.Rand, _ int) string {
		return env.(envs.ActionSampler).SampleAction(r)
	}
}

// BenchStep measures one Step of env, with actions from next and a Reset
// to the next seed whenever an episode ends (seeds from 0; the RNG is
// fixed, so every run plays the same steps).
func BenchStep(b *testing.B, env envs.Env, next Actions) {
	b.Helper()
	r := rand.New(rand.NewPCG(1, 2))
	seed := uint64(0)
	if _, _, err := env.Reset(seed); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	turn := 0
	for b.Loop() {
		st, err := env.Step(next(env, r, turn))
		if err != nil {
			b.Fatal(err)
		}
		turn++
		if st.Done() {
			seed++
			turn = 0
			if _, _, err := env.Reset(seed); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchReset measures one Reset of env (making a new board or puzzle), a
// new seed each time.
func BenchReset(b *testing.B, env envs.Env) {
	b.Helper()
	b.ReportAllocs()
	seed := uint64(0)
	for b.Loop() {
		if _, _, err := env.Reset(seed); err != nil {
			b.Fatal(err)
		}
		seed++
	}
}
