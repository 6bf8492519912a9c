package sokoban_test

import (
	"testing"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/game/gamekit/gamekittest"
	"github.com/gemgo/gemgo/envs/game/sokoban"
)

func TestRegister(t *testing.T) {
	gamekittest.CheckRegister(t, sokoban.Register, "game:Sokoban-v0-")
}

// BenchmarkStep plays sampled moves on the hard level.
func BenchmarkStep(b *testing.B) {
	env := gamekittest.Make[envs.Env](b, sokoban.Register, "game:Sokoban-v0-hard")
	gamekittest.BenchStep(b, env, gamekittest.Sampled())
}

// BenchmarkReset times making one 8×8 room with 4 boxes.
func BenchmarkReset(b *testing.B) {
	gamekittest.BenchReset(b, gamekittest.Make[envs.Env](b, sokoban.Register, "game:Sokoban-v0-hard"))
}
