package mastermind

import (
	"testing"

	"github.com/gemgo/gemgo/envs"
)

// BenchmarkStep measures one Step of a hard game (a fixed cycle of legal
// guesses, a Reset whenever an episode ends).
func BenchmarkStep(b *testing.B) {
	env, err := New(Config{Level: Level{4, 8, 30}, Style: envs.StyleBrief})
	if err != nil {
		b.Fatal(err)
	}
	actions := []string{`\boxed{1 2 3 4}`, `\boxed{5 6 7 8}`, `\boxed{2 1 4 3}`, `\boxed{1 1 5 5}`}
	seed := uint64(0)
	if _, _, err := env.Reset(seed); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		st, err := env.Step(actions[i%len(actions)])
		if err != nil {
			b.Fatal(err)
		}
		i++
		if st.Done() {
			seed++
			if _, _, err := env.Reset(seed); err != nil {
				b.Fatal(err)
			}
		}
	}
}
