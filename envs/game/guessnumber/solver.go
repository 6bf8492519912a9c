package guessnumber

import (
	"strconv"

	"github.com/gemgo/gemgo/envs"
)

// Solver plays bisection: every guess is the middle of the range that the
// hints so far leave open, so a range of n numbers takes at most
// ⌈log2(n+1)⌉ guesses (6 for the hard level's 1-50, within its 7 turns).
// It reads the range and the earlier guesses of the game it plays, and
// compares each guess with the target to replay the hint that guess got
// (higher or lower): it learns exactly what the hints told a player, and
// never guesses the target before bisection reaches it.
type Solver struct{ e *Env }

// NewSolver returns the bisection solver of e's current and later episodes.
func NewSolver(e *Env) *Solver { return &Solver{e: e} }

// NewSolver returns the solver of the episode e was last reset to
// (envs.SolverMaker).
func (e *Env) NewSolver() envs.Solver { return NewSolver(e) }

var _ envs.SolverMaker = (*Env)(nil)

// Act returns the next guess as \boxed{n}; the observation is not read.
func (s *Solver) Act(string) (string, error) {
	lo, hi := s.e.lo, s.e.hi
	for _, g := range s.e.guessed { // each guess's hint narrows the range
		switch {
		case g < s.e.target:
			lo = max(lo, g+1)
		case g > s.e.target:
			hi = min(hi, g-1)
		}
	}
	return envs.Boxed(strconv.Itoa(lo + (hi-lo)/2)), nil
}
