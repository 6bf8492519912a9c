package crosswords

import (
	"fmt"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/game/gamekit"
	"github.com/gemgo/gemgo/envs/game/words"
)

// Register adds game:Crosswords-v0-easy, -hard and -random to r.
func Register(r *envs.Registry) error {
	return gamekit.Register(r, "game:Crosswords-v0-", []gamekit.Level[string]{
		{Name: "easy", Desc: "Crosswords: fill a 3-word crossword from clues that show lengths, 30 turns", Value: "easy"},
		{Name: "hard", Desc: "Crosswords: fill a 3-word crossword from clues without lengths, 40 turns", Value: "hard"},
		{Name: "random", Desc: "Crosswords: easy or hard, drawn per episode", Value: "random"},
	}, factory)
}

// factory reads the options style, max_turns, view ("grid" or "cells",
// Config.View), sample ("any" or "first", SetSample) and clue_file (a file
// of "word: clue" lines replacing the embedded clues).
func factory(level string) envs.Factory {
	return func(o *envs.Options) (envs.Env, error) {
		view := o.String("view", ViewGrid, ViewGrid, ViewCells)
		clueFile := o.ServerOnly("names a file on the server").String("clue_file", "")
		newEnv := func(level string, style envs.Style, maxTurns int) (*Env, error) {
			cfg := Config{Level: level, Style: style, MaxTurns: maxTurns, View: view}
			if clueFile != "" {
				cs, err := words.ReadClueFile(clueFile)
				if err != nil {
					return nil, fmt.Errorf("option clue_file: %w", err)
				}
				cfg.Clues = cs
			}
			return New(cfg)
		}
		return gamekit.SampleFactory(0, 1, 1000, newEnv, (*Env).SetSample, SampleAny, SampleFirst)(level)(o)
	}
}
