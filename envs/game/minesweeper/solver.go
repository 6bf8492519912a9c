package minesweeper

import (
	"errors"
	"fmt"

	"github.com/gemgo/gemgo/envs"
)

// Solver reveals the centre cell first (the mines are placed after the
// first reveal, away from it), then the first hidden safe cell, row by
// row, until every safe cell is open; it never flags. It reads the env's
// mine layout (the answer state), not the numbers, so it never loses.
type Solver struct{ e *Env }

// NewSolver returns the solver of e's current and later episodes.
func NewSolver(e *Env) *Solver { return &Solver{e: e} }

// NewSolver returns the solver of the episode e was last reset to
// (envs.SolverMaker).
func (e *Env) NewSolver() envs.Solver { return NewSolver(e) }

var _ envs.SolverMaker = (*Env)(nil)

// Act returns the next move as \boxed{reveal r c}; the observation is not
// read.
func (s *Solver) Act(string) (string, error) {
	b := s.e.b
	if !b.placed {
		return envs.Boxed(fmt.Sprintf("reveal %d %d", b.n/2, b.n/2)), nil
	}
	for i, st := range b.state {
		if st == hidden && !b.mine[i] {
			return envs.Boxed(fmt.Sprintf("reveal %d %d", i/b.n, i%b.n)), nil
		}
	}
	return "", errors.New("minesweeper solver: no hidden safe cell")
}
