package fifteen

import "strings"

// Directions in which a tile slides into the blank.
const (
	up = iota
	down
	left
	right
)

// dirNames are the directions as actions take them.
var dirNames = [4]string{"up", "down", "left", "right"}

// inverse undoes each direction.
var inverse = [4]int{down, up, right, left}

// parseDir reads the content of a \boxed{} as a direction: a full name or
// its first letter, in any case. ok is false for anything else.
func parseDir(s string) (dir int, ok bool) {
	for d, name := range dirNames {
		if strings.EqualFold(s, name) || strings.EqualFold(s, name[:1]) {
			return d, true
		}
	}
	return 0, false
}
