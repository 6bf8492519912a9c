package sudoku

import (
	"errors"
	"fmt"

	"github.com/gemgo/gemgo/envs"
)

// Solver completes the grid by backtracking (most constrained cell first)
// and writes the completion's digits into the empty cells, row by row. It
// reads the grid of the env, the digits every observation draws, and not
// the env's answer; a puzzle has one solution, so the completion is it.
type Solver struct {
	e    *Env
	done []int8 // the completion, found on the first Act
}

// NewSolver returns the solver of e's current episode (make one per
// episode).
func NewSolver(e *Env) *Solver { return &Solver{e: e} }

// NewSolver returns the solver of the episode e was last reset to
// (envs.SolverMaker).
func (e *Env) NewSolver() envs.Solver { return NewSolver(e) }

var _ envs.SolverMaker = (*Env)(nil)

// Act returns the next move as \boxed{row col digit}, 1-indexed; the
// observation is not read.
func (s *Solver) Act(string) (string, error) {
	if s.done == nil {
		if s.done = s.e.sh.complete(s.e.grid); s.done == nil {
			return "", errors.New("sudoku solver: the grid has no completion")
		}
	}
	n := s.e.sh.n
	for i, v := range s.e.grid {
		if v == 0 {
			return envs.Boxed(fmt.Sprintf("%d %d %d", i/n+1, i%n+1, s.done[i])), nil
		}
	}
	return "", errors.New("sudoku solver: the grid is full")
}
