package guessnumber

import (
	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/game/gamekit"
)

// Register adds game:GuessTheNumber-v0-easy, -hard and -random to r.
//
// Options: "style" ("gem" or "brief"), "max_turns" (1–1000; default the
// level's), and for -easy and -hard "min" and "max" (the range, both
// included, in [-1e9, 1e9] with max > min; default the level's), and
// "sample" ("range", the default: random actions over the whole range, as
// GEM's; "interval": over the numbers the hints have left).
func Register(r *envs.Registry) error {
	return gamekit.Register(r, "game:GuessTheNumber-v0-", []gamekit.Level[Config]{
		{Name: "easy", Desc: "Guess a number in 1-10 from higher/lower hints within 4 turns.", Value: Config{Min: 1, Max: 10, MaxTurns: 4}},
		{Name: "hard", Desc: "Guess a number in 1-50 from higher/lower hints within 7 turns.", Value: Config{Min: 1, Max: 50, MaxTurns: 7}},
		{Name: "random", Desc: "Guess a number from higher/lower hints; range and turn limit drawn each episode.", Value: Config{Random: true}},
	}, factory)
}

// factory reads the options of a level into a Config.
func factory(level Config) envs.Factory {
	return func(o *envs.Options) (envs.Env, error) {
		cfg := level
		cfg.Style, cfg.MaxTurns = gamekit.Common(o, level.MaxTurns, 1, 1000)
		cfg.NoPartialCredit = !o.Bool("partial_credit", true)
		cfg.SampleInterval = o.String(envs.SampleOption, "range", "range", "interval") == "interval"
		if !level.Random {
			cfg.Min = o.Int("min", level.Min, -Bound, Bound)
			cfg.Max = o.Int("max", level.Max, -Bound, Bound)
			if cfg.Max <= cfg.Min {
				o.Failf("option max = %d must be greater than min = %d", cfg.Max, cfg.Min)
			}
		}
		if o.Err() != nil {
			return nil, nil // Make reports the option error
		}
		return New(cfg)
	}
}
