package builtin

import (
	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/game/fifteen"
	"github.com/gemgo/gemgo/envs/game/guessnumber"
	"github.com/gemgo/gemgo/envs/game/hanoi"
	"github.com/gemgo/gemgo/envs/game/mastermind"
)

// registerGamesCore registers the built-in envs of this family:
// GuessTheNumber, Mastermind, TowerofHanoi and FifteenPuzzle.
func registerGamesCore(r *envs.Registry) error {
	for _, reg := range []func(*envs.Registry) error{
		guessnumber.Register,
		mastermind.Register,
		hanoi.Register,
		fifteen.Register,
	} {
		if err := reg(r); err != nil {
			return err
		}
	}
	return nil
}
