package game2048

import "github.com/gemgo/gemgo/envs/core"

// Register adds game:Game2048-v0-easy, -hard and -random to r. Options:
// style ("gem" or "brief") and max_turns (0 keeps the level's limit).
func Register(r *core.Registry) error {
	for _, v := range []struct {
		id, desc string
		levels   []Level
	}{
		{"game:Game2048-v0-easy", "2048 on 4×4: reach 64 in 50 turns", []Level{{"easy", 64, 50}}},
		{"game:Game2048-v0-hard", "2048 on 4×4: reach 512 in 50 turns", []Level{{"hard", 512, 50}}},
		{"game:Game2048-v0-random", "2048 on 4×4: reach 16 in 20, 32 in 30 or 64 in 50 turns (drawn per episode)",
			[]Level{{"random", 16, 20}, {"random", 32, 30}, {"random", 64, 50}}},
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
