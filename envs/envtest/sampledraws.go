package envtest

import (
	"math/rand/v2"
	"testing"

	"github.com/gemgo/gemgo/envs"
)

// SampleDraws plays seeds 0 … seeds−1 of env with its own SampleAction,
// drawing from rand.NewPCG(seed, 3), until the episode ends or, with
// limit > 0, after limit moves, and returns every action drawn in order:
// what a test of an env's sample option compares between two options (the
// default draw must stay the one the golden transcripts pin).
func SampleDraws(t testing.TB, env interface {
	envs.Env
	envs.ActionSampler
}, seeds uint64, limit int) []string {
	t.Helper()
	var got []string
	for seed := range seeds {
		if _, _, err := env.Reset(seed); err != nil {
			t.Fatalf("Reset(%d): %v", seed, err)
		}
		r := rand.New(rand.NewPCG(seed, 3))
		for n := 0; limit <= 0 || n < limit; n++ {
			a := env.SampleAction(r)
			got = append(got, a)
			st, err := env.Step(a)
			if err != nil {
				t.Fatalf("seed %d: Step(%q): %v", seed, a, err)
			}
			if st.Done() {
				break
			}
		}
	}
	return got
}
