package fifteen

import (
	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/game/gamekit"
)

// Register adds game:FifteenPuzzle-v0-easy, -hard and -random to r.
//
// Options: "style" ("gem" or "brief"), "max_turns" (1–10000; default the
// level's), "scramble" (1–10000 random moves from the goal, below
// max_turns; default half the level's turn limit), and for -easy and -hard
// "size" (2–8; default the level's).
func Register(r *envs.Registry) error {
	return gamekit.Register(r, "game:FifteenPuzzle-v0-", []gamekit.Level[Config]{
		{Name: "easy", Desc: "Sliding puzzle: put the tiles of a 2x2 board in order within 10 turns.", Value: Config{Level: Level{2, 10}}},
		{Name: "hard", Desc: "Sliding puzzle: put the tiles of a 4x4 board in order within 50 turns.", Value: Config{Level: Level{4, 50}}},
		{Name: "random", Desc: "Sliding puzzle: put the tiles in order; board size and turn limit drawn each episode.", Value: Config{Random: true}},
	}, factory)
}

// factory reads the options of a level into a Config; New checks the
// combination (scramble below max_turns) and names the options at fault.
func factory(level Config) envs.Factory {
	return func(o *envs.Options) (envs.Env, error) {
		cfg := level
		cfg.Style, cfg.MaxTurns = gamekit.Common(o, level.MaxTurns, 1, 10000)
		cfg.Scramble = o.Int("scramble", 0, 1, 10000)
		if !level.Random {
			cfg.Size = o.Int("size", level.Size, 2, MaxSize)
		}
		if o.Err() != nil {
			return nil, nil // Make reports the option error
		}
		if err := cfg.Validate(); err != nil {
			o.Failf("%v", err)
			return nil, nil
		}
		return New(cfg)
	}
}
