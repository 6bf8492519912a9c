package mastermind

// maxParsed caps how many numbers of a guess are kept: longer guesses are
// wrong for every level, and the cap keeps a huge action from allocating.
const maxParsed = 16

// bigNumber stands for a number of three or more digits: out of range of
// every level.
const bigNumber = 100

// parseGuess reads the content of a \boxed{} into buf (reused) as a guess.
// The content is numbers separated by spaces, tabs and/or commas; a content
// that is a single run of two or more digits is read one digit per number
// ("1234" is 1 2 3 4). n is the count of numbers (it may exceed len(out),
// which is capped at maxParsed). ok is false when the content holds any
// other character or no number at all.
func parseGuess(s string, buf []int) (out []int, n int, ok bool) {
	out = buf[:0]
	tokens := 0
	singleRun := true
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == ',' || c == '\n' || c == '\r':
			i++
		case c >= '0' && c <= '9':
			j := i
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			tokens++
			if tokens > 1 {
				singleRun = false
			}
			v := bigNumber
			if j-i <= 2 {
				v = 0
				for k := i; k < j; k++ {
					v = v*10 + int(s[k]-'0')
				}
			}
			n++
			if len(out) < maxParsed {
				out = append(out, v)
			}
			i = j
		default:
			return out[:0], 0, false
		}
	}
	if tokens == 0 {
		return out[:0], 0, false
	}
	if singleRun {
		// One run of digits: one digit per number.
		run := trimSeparators(s)
		if len(run) > 1 {
			out = out[:0]
			for k := 0; k < len(run) && len(out) < maxParsed; k++ {
				out = append(out, int(run[k]-'0'))
			}
			n = len(run)
		}
	}
	return out, n, true
}

// trimSeparators strips leading and trailing separators from s.
func trimSeparators(s string) string {
	isSep := func(c byte) bool { return c == ' ' || c == '\t' || c == ',' || c == '\n' || c == '\r' }
	for len(s) > 0 && isSep(s[0]) {
		s = s[1:]
	}
	for len(s) > 0 && isSep(s[len(s)-1]) {
		s = s[:len(s)-1]
	}
	return s
}

// score returns the black and white pegs of guess against code (same
// length). digits bounds the values of both (1..digits).
func score(code, guess []int, digits int) (black, white int) {
	var inCode, inGuess [10]int
	for i, g := range guess {
		if g == code[i] {
			black++
		}
		inCode[code[i]]++
		inGuess[g]++
	}
	for d := 1; d <= digits; d++ {
		white += min(inCode[d], inGuess[d])
	}
	return black, white - black
}
