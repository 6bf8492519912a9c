package game2048

import (
	"testing"

	"github.com/gemgo/gemgo/envs"
)

// BenchmarkStep plays moves in a fixed cycle on the easy level, resetting
// at the end of each episode.
func BenchmarkStep(b *testing.B) {
	e := make1(b, "game:Game2048-v0-easy")
	seed := uint64(0)
	if _, _, err := e.Reset(seed); err != nil {
		b.Fatal(err)
	}
	actions := []string{envs.Boxed("left"), envs.Boxed("down"), envs.Boxed("right"), envs.Boxed("up")}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		st, err := e.Step(actions[i%len(actions)])
		if err != nil {
			b.Fatal(err)
		}
		if st.Done() {
			seed++
			if _, _, err := e.Reset(seed); err != nil {
				b.Fatal(err)
			}
		}
	}
}
