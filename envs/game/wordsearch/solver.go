package wordsearch

import (
	"errors"

	"github.com/gemgo/gemgo/envs"
)

// Move returns the move that finds p, its two ends as \boxed{r1 c1 r2 c2}.
func (p Placement) Move() string {
	er, ec := p.End()
	return Move{p.Row, p.Col, er, ec}.String()
}

// Solver names the hidden words not yet found, in the order they were
// hidden, so it finds them all in one move per word. It reads the env's
// answer, where each word was hidden, and which words are found; it does
// not search the letters.
type Solver struct{ e *Env }

// NewSolver returns the solver of e's current and later episodes.
func NewSolver(e *Env) *Solver { return &Solver{e: e} }

// NewSolver returns the solver of the episode e was last reset to
// (envs.SolverMaker).
func (e *Env) NewSolver() envs.Solver { return NewSolver(e) }

var _ envs.SolverMaker = (*Env)(nil)

// Act returns the next move; the observation is not read.
func (s *Solver) Act(string) (string, error) {
	for i, p := range s.e.grid.Words {
		if !s.e.found[i] {
			return p.Move(), nil
		}
	}
	return "", errors.New("wordsearch solver: every word is found")
}
