package wordsearch

import (
	"strings"

	"github.com/gemgo/gemgo/envs/core"
)

// Move names the two ends of a word: (R1, C1) and (R2, C2).
type Move struct {
	R1, C1, R2, C2 int
}

// ParseMove reads "r1 c1 r2 c2" from the last \boxed{} of a response.
// Commas and parentheses count as spaces. Numbers are whole, with an
// optional sign; one too large to mean a cell is kept as a large value (an
// invalid move, not a format error). ok is false when the box is missing or
// does not hold exactly four numbers.
func ParseMove(response string) (m Move, ok bool) {
	s, ok := core.LastBoxed(response)
	if !ok {
		return Move{}, false
	}
	fields := strings.FieldsFunc(s, func(r rune) bool {
		return r == ' ' || r == ',' || r == '(' || r == ')' || r == '\t' || r == '\n' || r == '\r'
	})
	if len(fields) != 4 {
		return Move{}, false
	}
	var v [4]int
	for i, f := range fields {
		n, ok := parseInt(f)
		if !ok {
			return Move{}, false
		}
		v[i] = n
	}
	return Move{v[0], v[1], v[2], v[3]}, true
}

// maxInt is where parseInt saturates: far beyond any grid.
const maxInt = 1 << 30

// parseInt parses a whole number with an optional sign, saturating at ±2^30.
func parseInt(s string) (int, bool) {
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
		n = min(n*10+int(s[i]-'0'), maxInt)
	}
	if neg {
		n = -n
	}
	return n, true
}
