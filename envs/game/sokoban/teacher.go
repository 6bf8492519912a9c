package sokoban

import (
	"math/rand/v2"

	"github.com/gemgo/gemgo/envs"
)

// SetSampleSolver makes SampleAction play, during an episode, the move of
// a solver: the first of up, down, left and right that starts a shortest
// solution of the room as drawn (walls, targets, boxes, the player) within
// the episode's turn limit. It reads the board alone, not the turns left
// nor the moves before, so one board always gets the same move. Where the
// room has no solution within the limit (a box pushed into a corner, for
// one), it draws as by default. The game is unchanged. The option
// sample: solver sets it.
func (e *Env) SetSampleSolver(on bool) { e.solver = on }

// SampleAction returns a random move that always parses: during an
// episode, one that is not blocked when there is one. With
// SetSampleSolver, the solver's move instead where the room is solvable.
func (e *Env) SampleAction(r *rand.Rand) string {
	if e.solver && e.ep.Active {
		if d, ok := teacherMove(e.r, e.limit); ok {
			return envs.Boxed(d.String())
		}
	}
	move := dir(r.IntN(4)).String()
	if open := e.LegalMoves(); len(open) > 0 {
		move = open[r.IntN(len(open))]
	}
	return envs.Boxed(move)
}

// teacherMove returns the first of up, down, left, right after which r
// is solvable in one move fewer than its shortest solution within limit
// moves, and false when r is solved or has no solution within limit.
// It costs at most five searches: one for the length, one per open move.
func teacherMove(r *room, limit int) (dir, bool) {
	n := solve(r, limit)
	if n <= 0 {
		return 0, false
	}
	for d := range dir(4) {
		if r.blocked(d) != "" {
			continue
		}
		c := r.clone()
		c.move(d)
		if solve(c, n-1) == n-1 {
			return d, true
		}
	}
	return 0, false // unreachable: a shortest solution starts with an open move
}
