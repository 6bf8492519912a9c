package minesweeper_test

import (
	"testing"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/game/gamekit/gamekittest"
	"github.com/gemgo/gemgo/envs/game/minesweeper"
)

func TestRegister(t *testing.T) {
	gamekittest.CheckRegister(t, minesweeper.Register, "game:Minesweeper-v0-")
}

// BenchmarkStep plays sampled moves on the hard (8×8) board.
func BenchmarkStep(b *testing.B) {
	env := gamekittest.Make[envs.Env](b, minesweeper.Register, "game:Minesweeper-v0-hard")
	gamekittest.BenchStep(b, env, gamekittest.Sampled())
}
