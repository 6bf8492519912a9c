package sokoban

import (
	"testing"

	"github.com/gemgo/gemgo/envs/game/gamekit/gamekittest"
	"github.com/stretchr/testify/require"
)

// The solver wins every room of every level, in the fewest moves: never
// more than the reverse walk that generated the room.
func TestSolverWinsEveryRoom(t *testing.T) {
	for _, id := range ids {
		e := make1(t, id)
		for seed := range uint64(50) {
			st, turns := gamekittest.Solve(t, e, seed, func() gamekittest.Solver { return NewSolver(e) })
			require.True(t, gamekittest.Won(st), "%s seed %d", id, seed)
			require.LessOrEqual(t, turns, e.genSteps, "%s seed %d", id, seed)
		}
	}
}
