package sudoku

import (
	"testing"

	"github.com/gemgo/gemgo/envs/game/gamekit/gamekittest"
	"github.com/stretchr/testify/require"
)

// The solver's completion is the env's answer, and it wins every puzzle of
// every level with one move per empty cell.
func TestSolverWinsEveryPuzzle(t *testing.T) {
	for _, id := range ids {
		e := make1(t, id)
		for seed := range uint64(50) {
			_, _, err := e.Reset(seed)
			require.NoError(t, err)
			require.Equal(t, e.sol, e.sh.complete(e.grid), "%s seed %d", id, seed)
			st, turns := gamekittest.Solve(t, e, seed, func() gamekittest.Solver { return NewSolver(e) })
			require.True(t, gamekittest.Won(st), "%s seed %d", id, seed)
			require.Equal(t, e.empty, turns, "%s seed %d", id, seed)
		}
	}
}

func TestCompleteRefusesABrokenGrid(t *testing.T) {
	s := shape{n: 4, b: 2}
	g := make([]int8, 16)
	g[0], g[1] = 1, 1 // two 1s in the first row
	require.Nil(t, s.complete(g))
	g[1] = 0
	done := s.complete(g)
	require.NotNil(t, done)
	require.Equal(t, 1, naiveCount(done, 2, 2), "a completion is a full valid grid")
	require.Equal(t, int8(1), done[0])
}
