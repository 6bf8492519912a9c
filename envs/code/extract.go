package code

import "strings"

// ExtractCode returns the program in a response: the content of the last
// complete fenced block tagged python (python, py or python3, any case), or
// when there is none the last complete untagged block. Blocks tagged with
// another language (text, bash, ...) are never taken. ok is false when no
// block qualifies: a format error.
//
// A fence is a line whose first non-space characters are three or more
// backticks; an opening fence may carry an info string (its first word is
// the language) with no backtick in it; a closing fence is a line of at
// least as many backticks and nothing else but spaces. A block still open
// at the end of the response does not count. The code is returned as it
// appears in the response (the slice between the fences, without the
// newline before the closing fence).
func ExtractCode(response string) (code string, ok bool) {
	var lastPy, lastPlain string
	var havePy, havePlain bool
	var (
		open      bool
		ticks     int
		lang      string
		bodyStart int
	)
	for pos := 0; pos <= len(response); {
		end := strings.IndexByte(response[pos:], '\n')
		next := len(response) + 1
		if end < 0 {
			end = len(response)
		} else {
			end += pos
			next = end + 1
		}
		line := response[pos:end]
		if !open {
			if n, info, isFence := openingFence(line); isFence {
				open, ticks, bodyStart = true, n, next
				lang = strings.ToLower(firstWord(info))
			}
		} else if closingFence(line, ticks) {
			open = false
			body := ""
			if pos > bodyStart {
				body = response[bodyStart : pos-1] // drop the '\n' before the fence
			}
			switch lang {
			case "python", "py", "python3":
				lastPy, havePy = body, true
			case "":
				lastPlain, havePlain = body, true
			}
		}
		pos = next
	}
	if havePy {
		return lastPy, true
	}
	return lastPlain, havePlain
}

// openingFence reports whether line opens a fenced block, with its number
// of backticks and its info string.
func openingFence(line string) (ticks int, info string, ok bool) {
	s := strings.TrimLeft(line, " \t")
	n := countTicks(s)
	if n < 3 {
		return 0, "", false
	}
	info = strings.TrimSpace(s[n:])
	if strings.ContainsRune(info, '`') {
		return 0, "", false
	}
	return n, info, true
}

// closingFence reports whether line closes a block opened with ticks
// backticks.
func closingFence(line string, ticks int) bool {
	s := strings.TrimSpace(line)
	n := countTicks(s)
	return n >= ticks && n == len(s)
}

func countTicks(s string) int {
	n := 0
	for n < len(s) && s[n] == '`' {
		n++
	}
	return n
}

func firstWord(s string) string {
	if f := strings.Fields(s); len(f) > 0 {
		return f[0]
	}
	return ""
}
