package gamekit

import (
	"fmt"

	"github.com/gemgo/gemgo/envs"
)

// Defaults fills the zero level and style of a game's config with their
// defaults ("easy" and envs.StyleGEM) and refuses a negative maxTurns (0
// keeps the level's own limit). game names the package in the error.
func Defaults(game string, level *string, style *envs.Style, maxTurns int) error {
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
// envs.StyleGEM and envs.StyleBrief; game names the package in the error.
func CheckStyle(game string, style envs.Style) error {
	if style != "" && style != envs.StyleGEM && style != envs.StyleBrief {
		return fmt.Errorf("%s: style %q: allowed values are %s, %s", game, style, envs.StyleGEM, envs.StyleBrief)
	}
	return nil
}

// StyleOrGEM returns style, or envs.StyleGEM for the zero style.
func StyleOrGEM(style envs.Style) envs.Style {
	if style == "" {
		return envs.StyleGEM
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
