package mastermind

import (
	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/game/gamekit"
)

// Register adds game:Mastermind-v0-easy, -hard and -random to r.
//
// Options: "style" ("gem" or "brief"), "max_turns" (1–1000; default the
// level's), and for -easy and -hard "length" (1–9) and "digits" (1–9,
// at least length; default the level's), and "sample" ("any", the default:
// random actions are any guess in range, as GEM's; "consistent": a code
// consistent with every peg count so far, for levels of at most
// MaxConsistent codes).
func Register(r *envs.Registry) error {
	return gamekit.Register(r, "game:Mastermind-v0-", []gamekit.Level[Config]{
		{Name: "easy", Desc: "Mastermind: find a code of 2 distinct digits 1-6 from black/white pegs within 10 turns.", Value: Config{Level: Level{2, 6, 10}}},
		{Name: "hard", Desc: "Mastermind: find a code of 4 distinct digits 1-8 from black/white pegs within 30 turns.", Value: Config{Level: Level{4, 8, 30}}},
		{Name: "random", Desc: "Mastermind: find a code from black/white pegs; the level is drawn each episode.", Value: Config{Random: true}},
	}, factory)
}

// factory reads the options of a level into a Config.
func factory(level Config) envs.Factory {
	return func(o *envs.Options) (envs.Env, error) {
		cfg := level
		cfg.Style, cfg.MaxTurns = gamekit.Common(o, level.MaxTurns, 1, 1000)
		cfg.SampleConsistent = o.String(envs.SampleOption, "any", "any", "consistent") == "consistent"
		if !level.Random {
			cfg.Length = o.Int("length", level.Length, 1, 9)
			cfg.Digits = o.Int("digits", level.Digits, 1, 9)
			if cfg.Length > cfg.Digits {
				o.Failf("option length = %d exceeds digits = %d: the code has distinct digits", cfg.Length, cfg.Digits)
			}
		}
		if o.Err() != nil {
			return nil, nil // Make reports the option error
		}
		return New(cfg)
	}
}
