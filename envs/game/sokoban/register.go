package sokoban

import "github.com/gemgo/gemgo/envs/core"

// Levels of GEM's ids (ENVS.md).
func easyLevel() Level { return Level{Name: "easy", Size: 6, Boxes: 2, Turns: 20} }
func hardLevel() Level { return Level{Name: "hard", Size: 8, Boxes: 4, Turns: 50} }

// Register adds game:Sokoban-v0-easy, -hard and -random to r. Options:
// style ("gem" or "brief") and max_turns (0 keeps the level's limit; rooms
// are always built to be solvable within the level's own limit).
func Register(r *core.Registry) error {
	for _, v := range []struct {
		id, desc string
		levels   []Level
	}{
		{"game:Sokoban-v0-easy", "Sokoban 6×6 with 2 boxes, 20 turns: push every box onto a target", []Level{easyLevel()}},
		{"game:Sokoban-v0-hard", "Sokoban 8×8 with 4 boxes, 50 turns: push every box onto a target", []Level{hardLevel()}},
		{"game:Sokoban-v0-random", "Sokoban, easy 6×6/2 boxes or hard 8×8/4 boxes drawn per episode", []Level{easyLevel(), hardLevel()}},
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
