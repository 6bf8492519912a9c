package guessnumber

import (
	"testing"

	"github.com/gemgo/gemgo/envs"
)

// BenchmarkStep measures one Step of a hard game (bisection guesses,
// a Reset whenever an episode ends).
func BenchmarkStep(b *testing.B) {
	env, err := New(Config{Min: 1, Max: 50, MaxTurns: 7, Style: envs.StyleBrief})
	if err != nil {
		b.Fatal(err)
	}
	actions := []string{`\boxed{25}`, `\boxed{12}`, `\boxed{38}`, `\boxed{6}`, `\boxed{44}`, `\boxed{19}`, `\boxed{31}`}
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
			i = 0
			if _, _, err := env.Reset(seed); err != nil {
				b.Fatal(err)
			}
		}
	}
}
