package sudoku

import (
	"fmt"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/game/gamekit"
)

// Levels of GEM's ids: GEM registers easy with clues=10 and hard with
// clues=50 and tries to blank that many cells, so its easy 4×4 puzzles have
// 8 to 10 empty cells and its hard 9×9 ones mostly 46 to 48; gemgo's match
// (TestLevelsMatchGEMDifficulty).
func easyLevel() Level { return Level{Name: "easy", Box: 2, Blanks: 10, Turns: 15} }
func hardLevel() Level { return Level{Name: "hard", Box: 3, Blanks: 50, Turns: 50} }

// Register adds game:Sudoku-v0-easy, -hard and -random to r. Options: style
// ("gem" or "brief"), max_turns (0 keeps the level's limit), sample
// ("any", the default: SampleAction's random draw; "single": the first
// naked single, SetSampleSingle; "first": the smallest number that fits
// the first unmarked empty cell, SetSampleFirst, which needs
// mark_rejected), mark_rejected (false, the default:
// GEM's grid; true: rejected cells show as 'x', SetMarkRejected) and
// mark_filled (false, the default; true: a filled cell a move named shows
// '!' before it, SetMarkFilled).
func Register(r *envs.Registry) error {
	return gamekit.Register(r, "game:Sudoku-v0-", []gamekit.Level[[]Level]{
		{Name: "easy", Desc: "Sudoku 4×4 with up to 10 empty cells, 15 turns, unique solution", Value: []Level{easyLevel()}},
		{Name: "hard", Desc: "Sudoku 9×9 with up to 50 empty cells, 50 turns, unique solution", Value: []Level{hardLevel()}},
		{Name: "random", Desc: "Sudoku, easy 4×4 or hard 9×9 drawn per episode, unique solution", Value: []Level{easyLevel(), hardLevel()}},
	}, factory)
}

// factory reads mark_rejected and leaves the other options to
// gamekit.SampleFactory, which reports the options' errors.
func factory(levels []Level) envs.Factory {
	withSample := gamekit.SampleFactory(0, 0, 10000, New, func(e *Env, s string) error {
		e.SetSampleSingle(s == "single")
		e.SetSampleFirst(s == "first")
		return nil
	}, "any", "single", "first")(levels)
	return func(o *envs.Options) (envs.Env, error) {
		mark := o.Bool("mark_rejected", false)
		markFilled := o.Bool("mark_filled", false)
		env, err := withSample(o)
		if err != nil {
			return nil, err
		}
		if env.(*Env).first && !mark {
			return nil, fmt.Errorf("option sample = first needs mark_rejected = true: without the marks a rejected guess leaves the grid as it was and the player would guess it again")
		}
		env.(*Env).SetMarkRejected(mark)
		env.(*Env).SetMarkFilled(markFilled)
		return env, nil
	}
}
