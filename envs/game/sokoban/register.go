package sokoban

import (
	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/game/gamekit"
)

// Levels of GEM's ids: the sizes and turn limits GEM registers.
func easyLevel() Level { return Level{Name: "easy", Size: 6, Boxes: 2, Turns: 20} }
func hardLevel() Level { return Level{Name: "hard", Size: 8, Boxes: 4, Turns: 50} }

// Register adds game:Sokoban-v0-easy, -hard and -random to r. Options:
// style ("gem" or "brief"), max_turns (0 keeps the level's limit; rooms
// are always built to be solvable within the level's own limit) and sample
// ("any", the default: SampleAction's random open move; "solver": the
// first move of a shortest solution, SetSampleSolver).
func Register(r *envs.Registry) error {
	return gamekit.Register(r, "game:Sokoban-v0-", []gamekit.Level[[]Level]{
		{Name: "easy", Desc: "Sokoban 6×6 with 2 boxes, 20 turns: push every box onto a target", Value: []Level{easyLevel()}},
		{Name: "hard", Desc: "Sokoban 8×8 with 4 boxes, 50 turns: push every box onto a target", Value: []Level{hardLevel()}},
		{Name: "random", Desc: "Sokoban, easy 6×6/2 boxes or hard 8×8/4 boxes drawn per episode", Value: []Level{easyLevel(), hardLevel()}},
	}, gamekit.SampleFactory(0, 0, 10000, New, func(e *Env, s string) error { e.SetSampleSolver(s == "solver"); return nil }, "any", "solver"))
}
