package hanoi

// parseMove reads the content of a \boxed{} as a move: two peg letters (A,
// B, C in either case) with optional separators (space, tab, newline, ',',
// '-', '>', '=', '→') and the words "to" and "from" in any case between or
// around them. ok is false for anything else.
func parseMove(s string) (from, to int, ok bool) {
	var pegs [2]int
	n := 0
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',' || c == '-' || c == '>' || c == '=':
			i++
		case hasPrefixFold(s[i:], "→"):
			i += len("→")
		case hasPrefixFold(s[i:], "to"):
			i += 2
		case hasPrefixFold(s[i:], "from"):
			i += 4
		case (c >= 'A' && c <= 'C') || (c >= 'a' && c <= 'c'):
			if n == 2 {
				return 0, 0, false
			}
			pegs[n] = int(c|0x20) - 'a'
			n++
			i++
		default:
			return 0, 0, false
		}
	}
	if n != 2 {
		return 0, 0, false
	}
	return pegs[0], pegs[1], true
}

// hasPrefixFold reports whether s starts with prefix, ASCII letters
// compared without case (prefix is lower case).
func hasPrefixFold(s, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for i := 0; i < len(prefix); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			c |= 0x20
		}
		if c != prefix[i] {
			return false
		}
	}
	return true
}
