package crosswords

import (
	"strings"

	"github.com/gemgo/gemgo/envs/core"
)

// Move writes one letter (lowercase a–z) into a cell.
type Move struct {
	Row, Col int
	Letter   byte
}

// ParseMove reads "row col letter" from the last \boxed{} of a response.
// Commas and parentheses count as spaces and the letter may be upper or
// lower case. Rows and columns are whole numbers with an optional sign; a
// number too large to mean a cell is kept as a large value (an invalid
// move, not a format error). ok is false when the box is missing or holds
// anything else.
func ParseMove(response string) (m Move, ok bool) {
	s, ok := core.LastBoxed(response)
	if !ok {
		return Move{}, false
	}
	fields := strings.FieldsFunc(s, func(r rune) bool {
		return r == ' ' || r == ',' || r == '(' || r == ')' || r == '\t' || r == '\n' || r == '\r'
	})
	if len(fields) != 3 || len(fields[2]) != 1 {
		return Move{}, false
	}
	row, ok1 := Int(fields[0])
	col, ok2 := Int(fields[1])
	l := fields[2][0] | 0x20 // ASCII lowercase
	if !ok1 || !ok2 || l < 'a' || l > 'z' {
		return Move{}, false
	}
	return Move{Row: row, Col: col, Letter: l}, true
}

// maxInt is where Int saturates: far beyond any grid.
const maxInt = 1 << 30

// Int parses a whole number with an optional sign, saturating at ±2^30.
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
		n = min(n*10+int(s[i]-'0'), maxInt)
	}
	if neg {
		n = -n
	}
	return n, true
}
