package envs

import (
	"fmt"
	"strconv"
	"unicode/utf8"
)

// ExcerptBytes is how many bytes of a value Excerpt keeps.
const ExcerptBytes = 64

// Excerpt quotes s for an observation or an error message, cut to its
// first ExcerptBytes bytes (at a rune boundary) with its full length noted
// when it is longer, so that a message about a 1 MB action or option is a
// line, not a megabyte:
//
//	Excerpt("up")                        → "up"
//	Excerpt(strings.Repeat("x", 1<<20)) → "xxx…x"… (1048576 bytes)
func Excerpt(s string) string {
	if len(s) <= ExcerptBytes {
		return strconv.Quote(s)
	}
	cut := ExcerptBytes
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s… (%d bytes)", strconv.Quote(s[:cut]), len(s))
}

// ExcerptValue prints v as fmt.Sprint does when that is at most
// ExcerptBytes long, and as Excerpt of it otherwise: a short value reads as
// itself (8, brief), a long one as a quoted, cut excerpt.
func ExcerptValue(v any) string {
	s := fmt.Sprint(v)
	if len(s) > ExcerptBytes {
		return Excerpt(s)
	}
	return s
}
