package game2048

import "github.com/gemgo/gemgo/envs/game/gamekit"

// parseAction reads the last \boxed{left|right|up|down} of s, in any case.
func parseAction(s string) (dir, error) {
	d, err := gamekit.ParseWord(s, dirNames[:])
	return dir(d), err
}
