package words

import "github.com/gemgo/gemgo/envs"

// FromBoxed reads a word from the last \boxed{} of a response: a run of
// letters a–z in any case (surrounding space ignored), returned lowercase.
// ok is false when the response has no such box.
func FromBoxed(response string) (word string, ok bool) {
	s, ok := envs.LastBoxed(response)
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
