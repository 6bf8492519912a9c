package guessnumber_test

import (
	"testing"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/game/gamekit/gamekittest"
	"github.com/gemgo/gemgo/envs/game/guessnumber"
)

func TestRegister(t *testing.T) {
	gamekittest.CheckRegister(t, guessnumber.Register, "game:GuessTheNumber-v0-")
}

// BenchmarkStep plays a fixed sequence of guesses from each start of a
// hard (1 to 50) game.
func BenchmarkStep(b *testing.B) {
	env := gamekittest.Make[envs.Env](b, guessnumber.Register, "game:GuessTheNumber-v0-hard", envs.With("style", "brief"))
	gamekittest.BenchStep(b, env, gamekittest.Cycle(`\boxed{25}`, `\boxed{12}`, `\boxed{38}`, `\boxed{6}`, `\boxed{44}`, `\boxed{19}`, `\boxed{31}`))
}
