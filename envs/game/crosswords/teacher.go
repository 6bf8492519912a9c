package crosswords

import "fmt"

// Values of the option sample (SetSample).
const (
	// SampleAny is GEM's draw: a random letter in a random empty cell.
	SampleAny = "any"
	// SampleFirst is a teacher for a warm-up (teacherMove).
	SampleFirst = "first"
)

// SetSample chooses SampleAction's player: SampleAny (the default) or
// SampleFirst, the teacher: during an episode it writes the answer's
// letter into the first empty cell of the first clue, in the clues'
// order, that has one. The clue's answer is the word the clue list gives
// it; the cell is the first _ of the cells view (ViewCells) in reading
// order. It reads the clues and the cells written so far, draws nothing,
// and plays one right letter a turn, so it fills every grid in one move
// per letter cell. The game is unchanged.
func (e *Env) SetSample(s string) error {
	switch s {
	case SampleAny, "":
		e.first = false
	case SampleFirst:
		e.first = true
	default:
		return fmt.Errorf("crosswords: sample %q: want %s or %s", s, SampleAny, SampleFirst)
	}
	return nil
}

// teacherMove returns SampleFirst's move, false when the grid is full.
func (e *Env) teacherMove() (string, bool) {
	p := &e.puzzle
	for _, en := range p.Entries {
		dr, dc := en.Step()
		for j := range len(en.Word) {
			r, c := en.Row+dr*j, en.Col+dc*j
			if e.filled[r*p.Cols+c] == 0 {
				return move(*p, r*p.Cols+c), true // the solution's letter is the word's
			}
		}
	}
	return "", false
}
