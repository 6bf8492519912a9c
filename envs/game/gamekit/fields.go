package gamekit

import (
	"strings"

	"github.com/gemgo/gemgo/envs"
)

// BoxedFields splits the last \boxed{...} of response into fields;
// spaces, tabs, line breaks, commas and parentheses all separate fields,
// so "(2, 3)" and "2 3" read alike. ok is false when there is no box.
func BoxedFields(response string) (fields []string, ok bool) {
	s, ok := envs.LastBoxed(response)
	if !ok {
		return nil, false
	}
	return strings.FieldsFunc(s, func(r rune) bool {
		return r == ' ' || r == ',' || r == '(' || r == ')' || r == '\t' || r == '\n' || r == '\r'
	}), true
}

// MaxInt is where Int saturates: far beyond any board.
const MaxInt = 1 << 30

// Int parses a whole number with an optional sign, saturating at ±2^30, so
// that a huge coordinate reads as an out-of-board value (an invalid move)
// rather than a format error. ok is false for anything but digits after
// the sign.
func Int(s string) (int, bool) {
	neg := false
	if s != "" && (s[0] == '-' || s[0] == '+') {
		neg = s[0] == '-'
		s = s[1:]
	}
	if s == "" {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = min(n*10+int(s[i]-'0'), MaxInt)
	}
	if neg {
		n = -n
	}
	return n, true
}
