package builtin

import (
	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/game/game2048"
	"github.com/gemgo/gemgo/envs/game/minesweeper"
	"github.com/gemgo/gemgo/envs/game/sokoban"
	"github.com/gemgo/gemgo/envs/game/sudoku"
)

// registerGamesPuzzle registers the built-in envs of this family.
func registerGamesPuzzle(r *envs.Registry) error {
	for _, reg := range []func(*envs.Registry) error{
		minesweeper.Register,
		sudoku.Register,
		game2048.Register,
		sokoban.Register,
	} {
		if err := reg(r); err != nil {
			return err
		}
	}
	return nil
}
