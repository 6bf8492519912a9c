package minesweeper

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gemgo/gemgo/envs"
)

// action is one parsed move.
type action struct {
	flag bool // false: reveal
	r, c int
}

func (a action) String() string {
	verb := "reveal"
	if a.flag {
		verb = "flag"
	}
	return fmt.Sprintf("%s %d %d", verb, a.r, a.c)
}

// parseAction reads the last \boxed{reveal r c} or \boxed{flag r c} of s
// (case-insensitive, commas allowed between fields). The coordinates are
// not range-checked: an off-board cell is an invalid move, not a format
// error.
func parseAction(s string) (action, error) {
	content, ok := envs.LastBoxed(s)
	if !ok {
		return action{}, fmt.Errorf("no \\boxed{...} found")
	}
	f := strings.Fields(strings.ReplaceAll(strings.ToLower(content), ",", " "))
	if len(f) != 3 {
		return action{}, fmt.Errorf("%s: want 3 fields, verb row col", envs.Excerpt(content))
	}
	var a action
	switch f[0] {
	case "reveal":
	case "flag":
		a.flag = true
	default:
		return action{}, fmt.Errorf("%s: the verb must be reveal or flag", envs.Excerpt(f[0]))
	}
	var err error
	if a.r, err = strconv.Atoi(f[1]); err != nil {
		return action{}, fmt.Errorf("row %s is not a whole number", envs.Excerpt(f[1]))
	}
	if a.c, err = strconv.Atoi(f[2]); err != nil {
		return action{}, fmt.Errorf("column %s is not a whole number", envs.Excerpt(f[2]))
	}
	return a, nil
}
