package fifteen

import (
	"errors"

	"github.com/gemgo/gemgo/envs"
)

// Solver undoes the scramble: it plays the inverse of the env's random
// moves from the goal to the start, last first, so it wins in at most as
// many moves as the scramble has, fewer when the undo passes the goal. It
// reads the env's scramble (the answer state, not a search) and the turn
// count, so it must play every move of its episode.
type Solver struct{ e *Env }

// NewSolver returns the solver of e's current and later episodes.
func NewSolver(e *Env) *Solver { return &Solver{e: e} }

// NewSolver returns the solver of the episode e was last reset to
// (envs.SolverMaker).
func (e *Env) NewSolver() envs.Solver { return NewSolver(e) }

var _ envs.SolverMaker = (*Env)(nil)

// Act returns the next slide as \boxed{up} (down, left, right); the
// observation is not read.
func (s *Solver) Act(string) (string, error) {
	k := len(s.e.scramble) - 1 - s.e.ep.Turn
	if k < 0 {
		return "", errors.New("fifteen solver: the scramble is undone")
	}
	return envs.Boxed(dirNames[inverse[s.e.scramble[k]]]), nil
}
