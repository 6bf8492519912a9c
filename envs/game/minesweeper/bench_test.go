package minesweeper

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkStep plays random sampled moves on the hard board, resetting at
// the end of each episode.
func BenchmarkStep(b *testing.B) {
	e := make1(b, "game:Minesweeper-v0-hard")
	rng := rand.New(rand.NewPCG(1, 2))
	seed := uint64(0)
	if _, _, err := e.Reset(seed); err != nil {
		b.Fatal(err)
	}
	actions := make([]string, 256)
	for i := range actions {
		actions[i] = e.SampleAction(rng)
	}
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
