package gamekit

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/gemgo/gemgo/envs"
)

// Pick returns the level of an episode: the only one of levels, or one
// drawn from rng when there are several (rng is not used otherwise, so a
// single-level game's episodes do not depend on it). levels must not be
// empty.
func Pick[L any](rng *rand.Rand, levels []L) L {
	if len(levels) == 1 {
		return levels[0]
	}
	return levels[rng.IntN(len(levels))]
}

// errNoBoxed is the parse error of an answer without \boxed{...}.
var errNoBoxed = errors.New("no \\boxed{...} found")

// ParseWord reads the last \boxed{...} of s as one of names, in any case,
// and returns its index in names. The error says what was wrong: no boxed
// answer, or a word that is not one of names (listed as "a, b or c").
func ParseWord(s string, names []string) (int, error) {
	content, ok := envs.LastBoxed(s)
	if !ok {
		return 0, errNoBoxed
	}
	word := strings.ToLower(content)
	for i, name := range names {
		if word == name {
			return i, nil
		}
	}
	return 0, fmt.Errorf("%s is not a move: want %s", envs.Excerpt(content), orList(names))
}

// orList writes names as "a, b or c".
func orList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}
