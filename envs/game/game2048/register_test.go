package game2048_test

import (
	"testing"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/game/game2048"
	"github.com/gemgo/gemgo/envs/game/gamekit/gamekittest"
)

func TestRegister(t *testing.T) {
	gamekittest.CheckRegister(t, game2048.Register, "game:Game2048-v0-")
}

// BenchmarkStep plays moves in a fixed cycle on the easy level.
func BenchmarkStep(b *testing.B) {
	env := gamekittest.Make[envs.Env](b, game2048.Register, "game:Game2048-v0-easy")
	gamekittest.BenchStep(b, env, gamekittest.Cycle(`\boxed{left}`, `\boxed{down}`, `\boxed{right}`, `\boxed{up}`))
}
