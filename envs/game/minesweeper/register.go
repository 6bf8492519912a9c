package minesweeper

import "github.com/gemgo/gemgo/envs/core"

// Levels of GEM's ids (ENVS.md).
func easyLevel() Level { return Level{Name: "easy", Size: 5, Mines: 5, Turns: 25} }
func hardLevel() Level { return Level{Name: "hard", Size: 8, Mines: 12, Turns: 64} }

// randomLevels: n in [5, 8], n²/5 mines, n² turns.
func randomLevels() []Level {
	var ls []Level
	for n := 5; n <= 8; n++ {
		ls = append(ls, Level{Name: "random", Size: n, Mines: n * n / 5, Turns: n * n})
	}
	return ls
}

// Register adds game:Minesweeper-v0-easy, -hard and -random to r. Options:
// style ("gem" or "brief") and max_turns (0 keeps the level's limit).
func Register(r *core.Registry) error {
	for _, v := range []struct {
		id, desc string
		levels   []Level
	}{
		{"game:Minesweeper-v0-easy", "Minesweeper 5×5 with 5 mines, 25 turns: reveal every safe cell", []Level{easyLevel()}},
		{"game:Minesweeper-v0-hard", "Minesweeper 8×8 with 12 mines, 64 turns: reveal every safe cell", []Level{hardLevel()}},
		{"game:Minesweeper-v0-random", "Minesweeper n×n, n in 5..8, n²/5 mines, n² turns: reveal every safe cell", randomLevels()},
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
