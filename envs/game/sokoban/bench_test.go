package sokoban

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkStep plays sampled moves on the hard level, resetting
// (generating a new room) at the end of each episode.
func BenchmarkStep(b *testing.B) {
	e := make1(b, "game:Sokoban-v0-hard")
	rng := rand.New(rand.NewPCG(1, 2))
	seed := uint64(0)
	if _, _, err := e.Reset(seed); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		st, err := e.Step(e.SampleAction(rng))
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

// BenchmarkGenerateHard times making one 8×8 room with 4 boxes (Reset).
func BenchmarkGenerateHard(b *testing.B) {
	e := make1(b, "game:Sokoban-v0-hard")
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, _, err := e.Reset(uint64(i)); err != nil {
			b.Fatal(err)
		}
	}
}
