package logic

import (
	"testing"

	"github.com/gemgo/gemgo/envs/task"
)

func BenchmarkGenerateDepth5(b *testing.B) {
	b.ReportAllocs()
	seed := uint64(0)
	for b.Loop() {
		Generate(task.Seeded(seed), Params{Depth: 5, Entities: 3, Distractor: 3})
		seed++
	}
}
