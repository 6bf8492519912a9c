package sudoku

import "github.com/gemgo/gemgo/envs/core"

// Levels of GEM's ids (ENVS.md; clue counts as GEM registers them).
func easyLevel() Level { return Level{Name: "easy", Box: 2, Clues: 10, Turns: 15} }
func hardLevel() Level { return Level{Name: "hard", Box: 3, Clues: 50, Turns: 50} }

// Register adds game:Sudoku-v0-easy, -hard and -random to r. Options: style
// ("gem" or "brief") and max_turns (0 keeps the level's limit).
func Register(r *core.Registry) error {
	for _, v := range []struct {
		id, desc string
		levels   []Level
	}{
		{"game:Sudoku-v0-easy", "Sudoku 4×4 with 10 clues, 15 turns, unique solution", []Level{easyLevel()}},
		{"game:Sudoku-v0-hard", "Sudoku 9×9 with 50 clues, 50 turns, unique solution", []Level{hardLevel()}},
		{"game:Sudoku-v0-random", "Sudoku, easy 4×4 or hard 9×9 drawn per episode, unique solution", []Level{easyLevel(), hardLevel()}},
	} {
		levels := v.levels
		err := r.RegisterDesc(v.id, v.desc, func(o *core.Options) (core.Env, error) {
			style := o.Style()
			maxTurns := o.Int("max_turns", 0, 0, 10000)
			return New(levels, style, maxTurns)
		})
		if err != nil {
			return err
		}
	}
	return nil
}
