package crosswords

import (
	"errors"
	"fmt"

	"github.com/gemgo/gemgo/envs"
)

// Moves returns the moves that fill the puzzle, one per letter cell, row
// by row, as \boxed{row col LETTER}.
func (p Puzzle) Moves() []string {
	var out []string
	for k, l := range p.Solution {
		if l != 0 {
			out = append(out, move(p, k))
		}
	}
	return out
}

func move(p Puzzle, k int) string {
	return fmt.Sprintf(`\boxed{%d %d %c}`, k/p.Cols, k%p.Cols, p.Solution[k]-'a'+'A')
}

// Solver writes the right letter into the first empty cell, row by row,
// so it fills the grid in one move per cell (Puzzle.Moves). It reads the
// env's answer, the puzzle's solution, and the cells written so far; it
// does not solve the clues.
type Solver struct{ e *Env }

// NewSolver returns the solver of e's current and later episodes.
func NewSolver(e *Env) *Solver { return &Solver{e: e} }

// NewSolver returns the solver of the episode e was last reset to
// (envs.SolverMaker).
func (e *Env) NewSolver() envs.Solver { return NewSolver(e) }

var _ envs.SolverMaker = (*Env)(nil)

// Act returns the next move; the observation is not read.
func (s *Solver) Act(string) (string, error) {
	p := s.e.puzzle
	for k, l := range p.Solution {
		if l != 0 && s.e.filled[k] == 0 {
			return move(p, k), nil
		}
	}
	return "", errors.New("crosswords solver: the grid is full")
}
