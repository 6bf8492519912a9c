package crosswords

import "github.com/gemgo/gemgo/envs/game/gamekit"

// Move writes one letter (lowercase a–z) into a cell.
type Move struct {
	Row, Col int
	Letter   byte
}

// ParseMove reads "row col letter" from the last \boxed{} of a response.
// Commas and parentheses count as spaces and the letter may be upper or
// lower case. Rows and columns are whole numbers with an optional sign; a
// number too large to mean a cell is kept as a large value (an invalid
// move, not a format error). ok is false when the box is missing or holds
// anything else.
func ParseMove(response string) (m Move, ok bool) {
	fields, ok := gamekit.BoxedFields(response)
	if !ok {
		return Move{}, false
	}
	if len(fields) != 3 || len(fields[2]) != 1 {
		return Move{}, false
	}
	row, ok1 := gamekit.Int(fields[0])
	col, ok2 := gamekit.Int(fields[1])
	l := fields[2][0] | 0x20 // ASCII lowercase
	if !ok1 || !ok2 || l < 'a' || l > 'z' {
		return Move{}, false
	}
	return Move{Row: row, Col: col, Letter: l}, true
}

// maxInt is where a coordinate saturates (see gamekit.Int).
const maxInt = gamekit.MaxInt
