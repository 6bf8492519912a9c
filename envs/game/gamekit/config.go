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
	*style = StyleOrGEM(*style)
	if maxTurns < 0 {
		return fmt.Errorf("%s: MaxTurns = %d: want 0 (default) or more", game, maxTurns)
	}
	return nil
}

// CheckStyle refuses a style other than the zero one (the default),
// core.StyleGEM and core.StyleBrief; game names the package in the error.
func CheckStyle(game string, style core.Style) error {
	if style != "" && style != core.StyleGEM && style != core.StyleBrief {
		return fmt.Errorf("%s: style %q: allowed values are %s, %s", game, style, core.StyleGEM, core.StyleBrief)
	}
	return nil
}

// StyleOrGEM returns style, or core.StyleGEM for the zero style.
func StyleOrGEM(style core.Style) core.Style {
	if style == "" {
		return core.StyleGEM
	}
	return style
}

// CheckMaxTurns refuses a negative maxTurns, and a zero one for a fixed
// (not random) level, which has no turn limit of its own to fall back on;
// game names the package in the error.
func CheckMaxTurns(game string, maxTurns int, random bool) error {
	if maxTurns < 0 || (!random && maxTurns == 0) {
		return fmt.Errorf("%s: max_turns = %d: want at least 1", game, maxTurns)
	}
	return nil
}
