package sudoku

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkStep plays sampled placements on the hard (9×9) puzzle,
// resetting (generating a new puzzle) at the end of each episode.
func BenchmarkStep(b *testing.B) {
	e := make1(b, "game:Sudoku-v0-hard")
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

// BenchmarkGenerate9x9 times making one unique 9×9 puzzle (Reset).
func BenchmarkGenerate9x9(b *testing.B) {
	e := make1(b, "game:Sudoku-v0-hard")
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, _, err := e.Reset(uint64(i)); err != nil {
			b.Fatal(err)
		}
	}
}
