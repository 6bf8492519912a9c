package hangman

import (
	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/game/gamekit"
	"github.com/gemgo/gemgo/envs/game/words"
)

// Register adds game:Hangman-v0-easy, -hard and -random to r.
//
// Options: "style" ("gem" or "brief"), "max_turns" (1–1000; default the
// level's), "word_file" and "dictionary" (see package words), and "sample"
// ("any", the default: random actions are letters not yet tried, one time
// in ten a word of the secret's length; "consistent": a word consistent
// with the game so far, or one of its letters not yet tried; "mode": that
// draw's most likely letter, deterministic), and "show_tried" (default false; true ends each observation after a guess
// with the letters guessed so far).
func Register(r *envs.Registry) error {
	return gamekit.Register(r, "game:Hangman-v0-", []gamekit.Level[string]{
		{Name: "easy", Desc: "Hangman: find a 3-letter word by guessing letters or the word, 10 turns", Value: "easy"},
		{Name: "hard", Desc: "Hangman: find a 7-letter word by guessing letters or the word, 20 turns", Value: "hard"},
		{Name: "random", Desc: "Hangman: find a word of 3, 5 or 7 letters (10, 15 or 20 turns), drawn per episode", Value: "random"},
	}, factory)
}

func factory(level string) envs.Factory {
	return func(o *envs.Options) (envs.Env, error) {
		cfg := Config{Level: level}
		cfg.Style, cfg.MaxTurns = gamekit.Common(o, 0, 1, 1000)
		sample := o.String(envs.SampleOption, "any", "any", "consistent", "mode")
		cfg.SampleConsistent = sample == "consistent"
		cfg.SampleMode = sample == "mode"
		cfg.ShowTried = o.Bool("show_tried", false)
		src := words.ReadOptions(o)
		if err := o.Err(); err != nil {
			return nil, err
		}
		list, err := src.Load()
		if err != nil {
			return nil, err
		}
		ss, _ := settings(level)
		var need []int
		for _, s := range ss {
			need = append(need, s.Length)
		}
		if err := src.Need(list, "Hangman "+level, need...); err != nil {
			return nil, err
		}
		cfg.Words = list
		return gamekit.AsEnv(New(cfg))
	}
}
