package hanoi

import (
	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/game/gamekit"
)

// Register adds game:TowerofHanoi-v0-easy, -hard and -random to r.
//
// Options: "style" ("gem" or "brief"), "max_turns" (1–10000; default the
// level's; at least 2^disks−1), and for -easy and -hard "disks" (1–12;
// default the level's).
func Register(r *envs.Registry) error {
	return gamekit.Register(r, "game:TowerofHanoi-v0-", []gamekit.Level[Config]{
		{Name: "easy", Desc: "Tower of Hanoi: move 3 disks from peg A to peg C within 10 turns.", Value: Config{Level: Level{3, 10}}},
		{Name: "hard", Desc: "Tower of Hanoi: move 5 disks from peg A to peg C within 35 turns.", Value: Config{Level: Level{5, 35}}},
		{Name: "random", Desc: "Tower of Hanoi: move the tower from A to C; disks and turn limit drawn each episode.", Value: Config{Random: true}},
	}, factory)
}

// factory reads the options of a level into a Config.
func factory(level Config) envs.Factory {
	return func(o *envs.Options) (envs.Env, error) {
		cfg := level
		cfg.Style, cfg.MaxTurns = gamekit.Common(o, level.MaxTurns, 1, 10000)
		if level.Random {
			if cfg.MaxTurns > 0 && cfg.MaxTurns < 31 {
				o.Failf("option max_turns = %d cannot solve the 5-disk level of -random: it needs at least 31", cfg.MaxTurns)
			}
		} else {
			cfg.Disks = o.Int("disks", level.Disks, 1, MaxDisks)
			if need := 1<<cfg.Disks - 1; cfg.MaxTurns < need {
				o.Failf("option max_turns = %d cannot solve %d disks: it needs at least 2^%d-1 = %d (set max_turns)", cfg.MaxTurns, cfg.Disks, cfg.Disks, need)
			}
		}
		if o.Err() != nil {
			return nil, nil // Make reports the option error
		}
		return New(cfg)
	}
}
