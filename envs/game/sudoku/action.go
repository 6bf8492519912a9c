package sudoku

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gemgo/gemgo/envs"
)

// action places num at (row, col), all 1-indexed as the player writes them.
type action struct{ row, col, num int }

func (a action) String() string { return fmt.Sprintf("%d %d %d", a.row, a.col, a.num) }

// parseAction reads the last \boxed{row col num} of s (commas allowed
// between the numbers). Values are not range-checked: an off-grid cell or a
// number out of range is an invalid move, not a format error.
func parseAction(s string) (action, error) {
	content, ok := envs.LastBoxed(s)
	if !ok {
		return action{}, fmt.Errorf("no \\boxed{...} found")
	}
	f := strings.Fields(strings.ReplaceAll(content, ",", " "))
	if len(f) != 3 {
		return action{}, fmt.Errorf("%s: want 3 whole numbers, row col num", envs.Excerpt(content))
	}
	var v [3]int
	for k, name := range []string{"row", "column", "number"} {
		n, err := strconv.Atoi(f[k])
		if err != nil {
			return action{}, fmt.Errorf("%s %s is not a whole number", name, envs.Excerpt(f[k]))
		}
		v[k] = n
	}
	return action{v[0], v[1], v[2]}, nil
}
