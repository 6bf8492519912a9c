package mastermind

import "github.com/gemgo/gemgo/envs/core"

// Register adds game:Mastermind-v0-easy, -hard and -random to r.
//
// Options: "style" ("gem" or "brief"), "max_turns" (1–1000; default the
// level's), and for -easy and -hard "length" (1–9) and "digits" (1–9,
// at least length; default the level's).
func Register(r *core.Registry) error {
	for _, lv := range []struct {
		id, desc string
		cfg      Config
	}{
		{"game:Mastermind-v0-easy", "Mastermind: find a code of 2 distinct digits 1-6 from black/white pegs within 10 turns.", Config{Level: Level{2, 6, 10}}},
		{"game:Mastermind-v0-hard", "Mastermind: find a code of 4 distinct digits 1-8 from black/white pegs within 30 turns.", Config{Level: Level{4, 8, 30}}},
		{"game:Mastermind-v0-random", "Mastermind: find a code from black/white pegs; the level is drawn each episode.", Config{Random: true}},
	} {
		if err := r.RegisterDesc(lv.id, lv.desc, factory(lv.cfg)); err != nil {
			return err
		}
	}
	return nil
}

// factory reads the options of a level into a Config.
func factory(level Config) core.Factory {
	return func(o *core.Options) (core.Env, error) {
		cfg := level
		cfg.Style = o.Style()
		cfg.MaxTurns = o.Int("max_turns", level.MaxTurns, 1, 1000)
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
