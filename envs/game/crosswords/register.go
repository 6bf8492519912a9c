package crosswords

import (
	"fmt"

	"github.com/gemgo/gemgo/envs/core"
	"github.com/gemgo/gemgo/envs/game/words"
)

// Register adds game:Crosswords-v0-easy, -hard and -random to r.
func Register(r *core.Registry) error {
	for _, lv := range []struct{ level, desc string }{
		{"easy", "Crosswords: fill a 3-word crossword from clues that show lengths, 30 turns"},
		{"hard", "Crosswords: fill a 3-word crossword from clues without lengths, 40 turns"},
		{"random", "Crosswords: easy or hard, drawn per episode"},
	} {
		if err := r.RegisterDesc("game:Crosswords-v0-"+lv.level, lv.desc, factory(lv.level)); err != nil {
			return err
		}
	}
	return nil
}

// factory reads the options style, max_turns and clue_file (a file of
// "word: clue" lines replacing the embedded clues).
func factory(level string) core.Factory {
	return func(o *core.Options) (core.Env, error) {
		cfg := Config{
			Level:    level,
			Style:    o.Style(),
			MaxTurns: o.Int("max_turns", 0, 1, 1000),
		}
		clueFile := o.String("clue_file", "")
		if err := o.Err(); err != nil {
			return nil, err
		}
		if clueFile != "" {
			cs, err := words.ReadClueFile(clueFile)
			if err != nil {
				return nil, fmt.Errorf("option clue_file: %w", err)
			}
			cfg.Clues = cs
		}
		env, err := New(cfg)
		if err != nil {
			return nil, err
		}
		return env, nil
	}
}
