package envs

import "strings"

// Standard rewards shared by the games (GEM's defaults).
const (
	// RewardFormatError is the reward of an action with no parseable
	// \boxed{...}; the episode terminates.
	RewardFormatError = -0.1
	// RewardSuccess is the reward of solving a game.
	RewardSuccess = 1.0
)

// LastBoxed returns the content of the last \boxed{...} in s, with nested
// braces balanced, trimmed of surrounding space. ok is false when s has no
// complete \boxed{...}.
func LastBoxed(s string) (content string, ok bool) {
	const tag = `\boxed{`
	for end := len(s); end > 0; {
		i := strings.LastIndex(s[:end], tag)
		if i < 0 {
			return "", false
		}
		depth := 1
		start := i + len(tag)
		for j := start; j < end; j++ {
			switch s[j] {
			case '{':
				depth++
			case '}':
				depth--
				if depth == 0 {
					return strings.TrimSpace(s[start:j]), true
				}
			}
		}
		// Unclosed: look for an earlier complete one. An earlier box can
		// only close before i (after i the braces never balance), so scans
		// stop at end and the whole search stays linear in len(s).
		end = i
	}
	return "", false
}

// Boxed wraps s as an action: \boxed{s}.
func Boxed(s string) string { return `\boxed{` + s + `}` }
