package minesweeper

import (
	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/game/gamekit"
)

// Levels of GEM's ids: the sizes and turn limits GEM registers.
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
// style ("gem" or "brief"), max_turns (0 keeps the level's limit) and sample
// ("any", the default: SampleAction's random draw; "deduce": the
// single-number rules' teacher, SetSampleDeduce).
func Register(r *envs.Registry) error {
	return gamekit.Register(r, "game:Minesweeper-v0-", []gamekit.Level[[]Level]{
		{Name: "easy", Desc: "Minesweeper 5×5 with 5 mines, 25 turns: reveal every safe cell", Value: []Level{easyLevel()}},
		{Name: "hard", Desc: "Minesweeper 8×8 with 12 mines, 64 turns: reveal every safe cell", Value: []Level{hardLevel()}},
		{Name: "random", Desc: "Minesweeper n×n, n in 5..8, n²/5 mines, n² turns: reveal every safe cell", Value: randomLevels()},
	}, gamekit.SampleFactory(0, 0, 10000, New, func(e *Env, s string) error { e.SetSampleDeduce(s == "deduce"); return nil }, "any", "deduce"))
}
