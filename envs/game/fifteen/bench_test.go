package fifteen

import (
	"testing"

	"github.com/gemgo/gemgo/envs"
)

// BenchmarkStep measures one Step of a hard (4×4) game: a fixed cycle of
// directions, a Reset whenever an episode ends.
func BenchmarkStep(b *testing.B) {
	env, err := New(Config{Level: Level{4, 50}, Style: envs.StyleBrief})
	if err != nil {
		b.Fatal(err)
	}
	actions := []string{`\boxed{down}`, `\boxed{right}`, `\boxed{up}`, `\boxed{left}`, `\boxed{down}`}
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
