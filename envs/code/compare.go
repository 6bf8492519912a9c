package code

import (
	"fmt"
	"strings"
)

// SameOutput reports whether a program's output matches the expected one.
// Line ends may be "\n" or "\r\n"; trailing spaces and tabs on each line
// and trailing blank lines are ignored; everything else (leading spaces,
// blank lines in between, case) must match exactly.
func SameOutput(got, want string) bool {
	return normalize(got) == normalize(want)
}

// normalize applies SameOutput's rules: it returns the lines that count.
func normalize(s string) string {
	lines := splitLines(s)
	return strings.Join(lines, "\n")
}

func splitLines(s string) []string {
	lines := strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t\r")
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// diffOutput describes the first difference between got and want in one
// short line, or "" when they match under SameOutput.
func diffOutput(got, want string) string {
	g, w := splitLines(got), splitLines(want)
	for i := 0; i < min(len(g), len(w)); i++ {
		if g[i] != w[i] {
			return fmt.Sprintf("line %d: expected %s, got %s", i+1, clip(w[i]), clip(g[i]))
		}
	}
	switch {
	case len(g) < len(w):
		return fmt.Sprintf("output ends after %d lines, expected %d (line %d: %s)", len(g), len(w), len(g)+1, clip(w[len(g)]))
	case len(g) > len(w):
		return fmt.Sprintf("output has %d lines, expected %d (extra line %d: %s)", len(g), len(w), len(w)+1, clip(g[len(w)]))
	}
	return ""
}

// clip quotes s, cut to a few dozen characters.
func clip(s string) string {
	const n = 60
	if r := []rune(s); len(r) > n {
		return fmt.Sprintf("%q…", string(r[:n]))
	}
	return fmt.Sprintf("%q", s)
}
