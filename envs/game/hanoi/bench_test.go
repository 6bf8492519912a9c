package hanoi

import (
	"testing"

	"github.com/gemgo/gemgo/envs"
)

// BenchmarkStep measures one Step of a hard game: the optimal 5-disk
// solution, a Reset whenever an episode ends.
func BenchmarkStep(b *testing.B) {
	env, err := New(Config{Level: Level{5, 35}, Style: envs.StyleBrief})
	if err != nil {
		b.Fatal(err)
	}
	var actions []string
	for _, m := range solution(5, "A", "B", "C", nil) {
		actions = append(actions, envs.Boxed(m))
	}
	if _, _, err := env.Reset(0); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		st, err := env.Step(actions[i])
		if err != nil {
			b.Fatal(err)
		}
		i++
		if st.Done() {
			i = 0
			if _, _, err := env.Reset(0); err != nil {
				b.Fatal(err)
			}
		}
	}
}
