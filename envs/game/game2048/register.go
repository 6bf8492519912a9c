package game2048

import (
	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/game/gamekit"
)

// Register adds game:Game2048-v0-easy, -hard and -random to r. Options:
// style ("gem" or "brief"), max_turns (0 keeps the level's limit) and
// sample ("any", the default: SampleAction's random draw; "corner",
// "merge", "lookahead", "alternate" or "rotate": a scripted player, see Sample).
func Register(r *envs.Registry) error {
	return gamekit.Register(r, "game:Game2048-v0-", []gamekit.Level[[]Level]{
		{Name: "easy", Desc: "2048 on 4×4: reach 64 in 50 turns", Value: []Level{{"easy", 64, 50}}},
		{Name: "hard", Desc: "2048 on 4×4: reach 512 in 50 turns", Value: []Level{{"hard", 512, 50}}},
		{Name: "random", Desc: "2048 on 4×4: reach 16 in 20, 32 in 30 or 64 in 50 turns (drawn per episode)",
			Value: []Level{{"random", 16, 20}, {"random", 32, 30}, {"random", 64, 50}}},
	}, gamekit.SampleFactory(0, 0, 10000, New, func(e *Env, s string) error { return e.SetSample(Sample(s)) }, samples...))
}
