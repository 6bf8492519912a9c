package hanoi

import (
	"errors"

	"github.com/gemgo/gemgo/envs"
)

// Solution appends to moves the 2^n−1 moves ("A C") that take n disks from
// peg from to peg to by way of peg via, the shortest way there is: move
// n−1 disks out of the way, the largest disk across, the n−1 back on it.
func Solution(n int, from, via, to string, moves []string) []string {
	if n == 0 {
		return moves
	}
	moves = Solution(n-1, from, to, via, moves)
	moves = append(moves, from+" "+to)
	return Solution(n-1, via, from, to, moves)
}

// Solver plays the shortest way from the position of the game it plays
// to every disk on C. It reads the pegs of the env, the position that
// every observation draws, so it also finishes a game that others began;
// from the start it plays Solution's 2^n−1 moves.
type Solver struct{ e *Env }

// NewSolver returns the solver of e's current and later episodes.
func NewSolver(e *Env) *Solver { return &Solver{e: e} }

// NewSolver returns the solver of the episode e was last reset to
// (envs.SolverMaker).
func (e *Env) NewSolver() envs.Solver { return NewSolver(e) }

var _ envs.SolverMaker = (*Env)(nil)

// Act returns the next move as \boxed{X Y}; the observation is not read.
func (s *Solver) Act(string) (string, error) {
	var on [MaxDisks + 1]int // on[d]: the peg of disk d
	for p, peg := range s.e.pegs {
		for _, d := range peg {
			on[d] = p
		}
	}
	from, to, ok := nextMove(on[:s.e.lv.Disks+1], s.e.lv.Disks, 2)
	if !ok {
		return "", errors.New("hanoi solver: every disk is on C already")
	}
	return envs.Boxed(string(rune('A'+from)) + " " + string(rune('A'+to))), nil
}

// nextMove returns the first move of the shortest way to gather disks
// 1..n on peg target, where on[d] is the peg of disk d; ok is false when
// they are there already. Disk n must reach target: when it is there, the
// smaller disks go on it; when it is not, the disks above it go first to
// the third peg, and then it moves.
func nextMove(on []int, n, target int) (from, to int, ok bool) {
	for ; n > 0; n-- {
		if on[n] == target {
			continue
		}
		spare := 3 - on[n] - target
		if f, t, ok := nextMove(on, n-1, spare); ok {
			return f, t, true
		}
		return on[n], target, true
	}
	return 0, 0, false
}
