package wordle

import (
	"github.com/gemgo/gemgo/envs/core"
)

// ParseGuess reads the guess from the last \boxed{} of a response: a run of
// letters a–z in any case (surrounding space ignored), returned lowercase.
// ok is false when there is no such box: a format error.
func ParseGuess(response string) (guess string, ok bool) {
	s, ok := core.LastBoxed(response)
	if !ok || s == "" {
		return "", false
	}
	lower := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z':
		case c >= 'A' && c <= 'Z':
			lower = false
		default:
			return "", false
		}
	}
	if lower {
		return s, true
	}
	b := []byte(s)
	for i, c := range b {
		if c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b), true
}
