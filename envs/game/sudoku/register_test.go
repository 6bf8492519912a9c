package sudoku_test

import (
	"testing"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/game/gamekit/gamekittest"
	"github.com/gemgo/gemgo/envs/game/sudoku"
)

func TestRegister(t *testing.T) {
	gamekittest.CheckRegister(t, sudoku.Register, "game:Sudoku-v0-")
}

// BenchmarkStep plays sampled placements on the hard (9×9) level.
func BenchmarkStep(b *testing.B) {
	env := gamekittest.Make[envs.Env](b, sudoku.Register, "game:Sudoku-v0-hard")
	gamekittest.BenchStep(b, env, gamekittest.Sampled())
}

// BenchmarkReset times making one 9×9 puzzle with a unique solution.
func BenchmarkReset(b *testing.B) {
	gamekittest.BenchReset(b, gamekittest.Make[envs.Env](b, sudoku.Register, "game:Sudoku-v0-hard"))
}
