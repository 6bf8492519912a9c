package guessnumber

import (
	"math"
	"strconv"
)

// maxShown caps how many digits of an out-of-range guess are echoed back.
const maxShown = 20

// parseGuess reads the content of a \boxed{} as a guess: decimal digits with
// an optional leading sign, nothing else (spaces around it are already
// trimmed by envs.LastBoxed). A number too large for an int is still a
// number: it is clamped to math.MaxInt or math.MinInt, which is out of range
// of every game, and text is the number as written (capped in length) for
// the feedback line. ok is false for anything that is not an integer.
func parseGuess(s string) (n int, text string, ok bool) {
	digits := s
	neg := false
	if len(digits) > 0 && (digits[0] == '+' || digits[0] == '-') {
		neg = digits[0] == '-'
		digits = digits[1:]
	}
	if digits == "" {
		return 0, "", false
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return 0, "", false
		}
	}
	v, err := strconv.Atoi(s)
	if err == nil {
		return v, strconv.Itoa(v), true
	}
	// Only a range error is possible here: the syntax was checked above.
	for len(digits) > 1 && digits[0] == '0' {
		digits = digits[1:]
	}
	if len(digits) > maxShown {
		digits = digits[:maxShown] + "..."
	}
	if neg {
		return math.MinInt, "-" + digits, true
	}
	return math.MaxInt, digits, true
}
