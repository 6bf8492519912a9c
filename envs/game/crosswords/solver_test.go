package crosswords

import (
	"testing"

	"github.com/gemgo/gemgo/envs/game/gamekit/gamekittest"
	"github.com/stretchr/testify/require"
)

// The solver fills every grid of every level, one move per letter cell.
func TestSolverFillsEveryGrid(t *testing.T) {
	for _, level := range []string{"easy", "hard", "random"} {
		e := newEnv(t, Config{Level: level})
		for seed := range uint64(50) {
			st, turns := gamekittest.Solve(t, e, seed, func() gamekittest.Solver { return NewSolver(e) })
			require.True(t, gamekittest.Won(st), "%s seed %d", level, seed)
			require.Equal(t, len(e.Puzzle().Moves()), turns, "%s seed %d", level, seed)
		}
	}
}
