package gamekit

import (
	"fmt"

	"github.com/gemgo/gemgo/envs/core"
)

// Defaults fills the zero level and style of a game's config with their
// defaults ("easy" and core.StyleGEM) and refuses a negative maxTurns (0
// keeps the level's own limit). game names the package in the error.
func Defaults(game string, level *string, style *core.Style, maxTurns int) error {
	if *level == "" {
		*level = "easy"
	}
	if *style == "" {
		*style = core.StyleGEM
	}
	if maxTurns < 0 {
		return fmt.Errorf("%s: MaxTurns = %d: want 0 (default) or more", game, maxTurns)
	}
	return nil
}
