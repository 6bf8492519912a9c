package wordsearch

import (
	"fmt"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/game/gamekit"
	"github.com/gemgo/gemgo/envs/game/words"
)

// Register adds game:WordSearch-v0-easy, -hard and -random to r.
//
// Options: "style" ("gem" or "brief"), "max_turns" (1–1000; default the
// level's 20), "word_file" and "dictionary" (see package words), "sample"
// ("any", the default: random actions are straight lines of 3 to 7 cells;
// "last": the deterministic teacher LastMove, the last word left of the
// list, its last letter's cell first) and "show_grid" (default false: an
// observation after a move ends with the words left and the turns left;
// true: with the turns left, then the words left and the grid, as the
// first observation ends).
func Register(r *envs.Registry) error {
	return gamekit.Register(r, "game:WordSearch-v0-", []gamekit.Level[string]{
		{Name: "easy", Desc: "WordSearch: find 5 words hidden across or down in an 8x8 grid, 20 turns", Value: "easy"},
		{Name: "hard", Desc: "WordSearch: find 5 words hidden in any of 8 directions in a 12x12 grid, 20 turns", Value: "hard"},
		{Name: "random", Desc: "WordSearch: easy or hard, drawn per episode", Value: "random"},
	}, factory)
}

func factory(level string) envs.Factory {
	return func(o *envs.Options) (envs.Env, error) {
		cfg := Config{Level: level}
		cfg.Style, cfg.MaxTurns = gamekit.Common(o, 0, 1, 1000)
		cfg.SampleLast = o.String(envs.SampleOption, "any", "any", "last") == "last"
		cfg.ShowGrid = o.Bool("show_grid", false)
		src := words.ReadOptions(o)
		if err := o.Err(); err != nil {
			return nil, err
		}
		list, err := src.Load()
		if err != nil {
			return nil, err
		}
		cfg.Words = list
		env, err := New(cfg)
		if err != nil {
			if src.WordFile != "" {
				return nil, fmt.Errorf("word_file %s: %w", src.WordFile, err)
			}
			return nil, err
		}
		return env, nil
	}
}
