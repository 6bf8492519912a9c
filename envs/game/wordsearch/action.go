package wordsearch

import (
	"fmt"

	"github.com/gemgo/gemgo/envs/game/gamekit"
)

// Move names the two ends of a word: (R1, C1) and (R2, C2).
type Move struct {
	R1, C1, R2, C2 int
}

// String is the move as the env reads it: \boxed{r1 c1 r2 c2}.
func (m Move) String() string {
	return fmt.Sprintf(`\boxed{%d %d %d %d}`, m.R1, m.C1, m.R2, m.C2)
}

// ParseMove reads "r1 c1 r2 c2" from the last \boxed{} of a response.
// Commas and parentheses count as spaces. Numbers are whole, with an
// optional sign; one too large to mean a cell is kept as a large value (an
// invalid move, not a format error). ok is false when the box is missing or
// does not hold exactly four numbers.
func ParseMove(response string) (m Move, ok bool) {
	fields, ok := gamekit.BoxedFields(response)
	if !ok {
		return Move{}, false
	}
	if len(fields) != 4 {
		return Move{}, false
	}
	var v [4]int
	for i, f := range fields {
		n, ok := gamekit.Int(f)
		if !ok {
			return Move{}, false
		}
		v[i] = n
	}
	return Move{v[0], v[1], v[2], v[3]}, true
}

// maxInt is where a coordinate saturates (see gamekit.Int).
const maxInt = gamekit.MaxInt
