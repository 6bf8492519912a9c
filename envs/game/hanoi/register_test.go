package hanoi

import (
	"testing"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/game/gamekit/gamekittest"
)

func TestRegister(t *testing.T) {
	gamekittest.CheckRegister(t, Register, "game:TowerofHanoi-v0-")
}

// BenchmarkStep plays the optimal 5-disk solution on the hard level.
func BenchmarkStep(b *testing.B) {
	var actions []string
	for _, m := range Solution(5, "A", "B", "C", nil) {
		actions = append(actions, envs.Boxed(m))
	}
	env := makeEnv(b, hardID, envs.With("style", "brief"))
	gamekittest.BenchStep(b, env, gamekittest.Cycle(actions...))
}
