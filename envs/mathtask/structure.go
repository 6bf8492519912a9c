package mathtask

import (
	"regexp"
	"strings"
)

// maxElems bounds the elements of a set, tuple or matrix that Equivalent
// compares (each pair of elements may be compared, so the work is
// quadratic in it).
const maxElems = 64

// splitSet reads "\{a, b, ...\}" (or \emptyset, \varnothing, ∅, \{\}) as
// its elements. ok is false when s is not written as a set.
func splitSet(s string) (elems []string, ok bool) {
	switch s {
	case `\emptyset`, `\varnothing`, "∅", `\{\}`:
		return []string{}, true
	}
	if !strings.HasPrefix(s, `\{`) || !strings.HasSuffix(s, `\}`) || len(s) < 4 {
		return nil, false
	}
	inner := strings.TrimSpace(s[2 : len(s)-2])
	if inner == "" {
		return []string{}, true
	}
	parts, balanced := splitTop(inner, ',')
	if !balanced || len(parts) > maxElems {
		return nil, false
	}
	return parts, true
}

// splitTop splits s at sep where no bracket is open. balanced is false when
// the brackets do not match.
func splitTop(s string, sep byte) (parts []string, balanced bool) {
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
			if depth < 0 {
				return nil, false
			}
		case sep:
			if depth == 0 {
				parts = append(parts, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	if depth != 0 {
		return nil, false
	}
	return append(parts, strings.TrimSpace(s[start:])), true
}

// sameSet reports whether every element of a is equivalent to one of b and
// every element of b to one of a (order and repeats do not matter).
func (c *comparer) sameSet(a, b []string, depth int) bool {
	covers := func(x, y []string) bool {
		for _, e := range x {
			found := false
			for _, f := range y {
				if c.equiv(e, f, depth+1) {
					found = true
					break
				}
			}
			if !found {
				return false
			}
		}
		return true
	}
	return covers(a, b) && covers(b, a)
}

var reMatrix = regexp.MustCompile(`^\\begin\{([pbB]?matrix|array)\}(?:\{[lcr| ]*\})?(.*)\\end\{([pbB]?matrix|array)\}$`)

// splitMatrix reads a pmatrix, bmatrix, Bmatrix, matrix or array as rows of
// cells (rows end with \\, cells are split at &). The kind of bracket does
// not matter; a determinant (vmatrix) is not a matrix.
func splitMatrix(s string) (rows [][]string, ok bool) {
	m := reMatrix.FindStringSubmatch(s)
	if m == nil || (m[1] == "array") != (m[3] == "array") {
		return nil, false
	}
	body := strings.TrimSpace(m[2])
	body = strings.TrimSuffix(body, `\\`)
	lines := strings.Split(body, `\\`)
	if len(lines) > maxElems {
		return nil, false
	}
	cells := 0
	for _, l := range lines {
		row, balanced := splitTop(strings.TrimSpace(l), '&')
		if !balanced {
			return nil, false
		}
		if cells += len(row); cells > maxElems {
			return nil, false
		}
		rows = append(rows, row)
	}
	return rows, true
}

func (c *comparer) sameMatrix(a, b [][]string, depth int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if len(a[i]) != len(b[i]) {
			return false
		}
		for j := range a[i] {
			if !c.equiv(a[i][j], b[i][j], depth+1) {
				return false
			}
		}
	}
	return true
}
