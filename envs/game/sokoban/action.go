package sokoban

import (
	"fmt"
	"strings"

	"github.com/gemgo/gemgo/envs/core"
)

// parseAction reads the last \boxed{up|down|left|right} of s, in any case.
func parseAction(s string) (dir, error) {
	content, ok := core.LastBoxed(s)
	if !ok {
		return 0, fmt.Errorf("no \\boxed{...} found")
	}
	word := strings.ToLower(content)
	for d, name := range dirNames {
		if word == name {
			return dir(d), nil
		}
	}
	return 0, fmt.Errorf("%q is not a move: want up, down, left or right", content)
}
