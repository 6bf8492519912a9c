package mastermind_test

import (
	"testing"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/game/gamekit/gamekittest"
	"github.com/gemgo/gemgo/envs/game/mastermind"
)

func TestRegister(t *testing.T) {
	gamekittest.CheckRegister(t, mastermind.Register, "game:Mastermind-v0-")
}

// BenchmarkStep plays a fixed cycle of legal guesses on the hard level.
func BenchmarkStep(b *testing.B) {
	env := gamekittest.Make[envs.Env](b, mastermind.Register, "game:Mastermind-v0-hard", envs.With("style", "brief"))
	gamekittest.BenchStep(b, env, gamekittest.Cycle(`\boxed{1 2 3 4}`, `\boxed{5 6 7 8}`, `\boxed{2 1 4 3}`, `\boxed{1 1 5 5}`))
}
