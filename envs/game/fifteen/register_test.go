package fifteen_test

import (
	"testing"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/game/fifteen"
	"github.com/gemgo/gemgo/envs/game/gamekit/gamekittest"
)

func TestRegister(t *testing.T) {
	gamekittest.CheckRegister(t, fifteen.Register, "game:FifteenPuzzle-v0-")
}

// BenchmarkStep slides a fixed cycle of directions on the hard (4×4) level.
func BenchmarkStep(b *testing.B) {
	env := gamekittest.Make[envs.Env](b, fifteen.Register, "game:FifteenPuzzle-v0-hard", envs.With("style", "brief"))
	gamekittest.BenchStep(b, env, gamekittest.Cycle(`\boxed{down}`, `\boxed{right}`, `\boxed{up}`, `\boxed{left}`, `\boxed{down}`))
}
