package wordle

import (
	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/game/gamekit"
	"github.com/gemgo/gemgo/envs/game/words"
)

// Register adds game:Wordle-v0-easy, -hard and -random to r.
//
// Options: "style" ("gem" or "brief"), "max_turns" (1–1000; default 5 ×
// length), "word_file" and "dictionary" (see package words), and "sample"
// ("any", the default: random actions are any listed word of the secret's
// length, as GEM's; "consistent": a word consistent with every mark so far;
// "first": the first such word in the word list's alphabetical order) and "invalid_reward" (-1 to 0, default 0 as GEM's: the reward of a
// repeated, unlisted or wrong-length guess).
func Register(r *envs.Registry) error {
	return gamekit.Register(r, "game:Wordle-v0-", []gamekit.Level[string]{
		{Name: "easy", Desc: "Wordle: find a 3-letter word from G/Y/X feedback, 15 turns", Value: "easy"},
		{Name: "hard", Desc: "Wordle: find a 5-letter word from G/Y/X feedback, 25 turns", Value: "hard"},
		{Name: "random", Desc: "Wordle: find a word of 3-5 letters (drawn per episode) from G/Y/X feedback, 5 turns a letter", Value: "random"},
	}, factory)
}

func factory(level string) envs.Factory {
	return func(o *envs.Options) (envs.Env, error) {
		cfg := Config{Level: level}
		cfg.Style, cfg.MaxTurns = gamekit.Common(o, 0, 1, 1000)
		sample := o.String(envs.SampleOption, "any", "any", "consistent", "first")
		cfg.SampleConsistent, cfg.SampleFirst = sample == "consistent", sample == "first"
		cfg.InvalidReward = o.Float("invalid_reward", 0, -1, 0)
		src := words.ReadOptions(o)
		if err := o.Err(); err != nil {
			return nil, err
		}
		list, err := src.Load()
		if err != nil {
			return nil, err
		}
		lo, hi, _ := lengths(level)
		var need []int
		for n := lo; n <= hi; n++ {
			need = append(need, n)
		}
		if err := src.Need(list, "Wordle "+level, need...); err != nil {
			return nil, err
		}
		cfg.Words = list
		return gamekit.AsEnv(New(cfg))
	}
}
