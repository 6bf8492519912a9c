package sokoban

import "github.com/gemgo/gemgo/envs/game/gamekit"

// parseAction reads the last \boxed{up|down|left|right} of s, in any case.
func parseAction(s string) (dir, error) {
	d, err := gamekit.ParseWord(s, dirNames[:])
	return dir(d), err
}
