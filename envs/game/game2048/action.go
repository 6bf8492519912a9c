package game2048

import (
	"fmt"
	"strings"

	"github.com/gemgo/gemgo/envs/core"
)

// parseAction reads the last \boxed{left|right|up|down} of s, in any case.
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
	return 0, fmt.Errorf("%q is not a move: want left, right, up or down", content)
}
