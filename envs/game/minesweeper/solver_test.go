package minesweeper

import (
	"testing"

	"github.com/gemgo/gemgo/envs/game/gamekit/gamekittest"
	"github.com/stretchr/testify/require"
)

// The solver wins every board of every level within the turn limit.
func TestSolverWinsEveryBoard(t *testing.T) {
	for _, id := range ids {
		e := make1(t, id)
		for seed := range uint64(50) {
			st, _ := gamekittest.Solve(t, e, seed, func() gamekittest.Solver { return NewSolver(e) })
			require.True(t, gamekittest.Won(st), "%s seed %d", id, seed)
		}
	}
}
