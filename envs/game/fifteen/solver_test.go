package fifteen

import (
	"testing"

	"github.com/gemgo/gemgo/envs/game/gamekit/gamekittest"
	"github.com/stretchr/testify/require"
)

// The solver wins every game of every level within the scramble's moves.
func TestSolverWinsEveryGame(t *testing.T) {
	for _, id := range []string{easyID, hardID, randomID} {
		env := makeEnv(t, id)
		for seed := range uint64(50) {
			st, turns := gamekittest.Solve(t, env, seed, func() gamekittest.Solver { return NewSolver(env) })
			require.True(t, gamekittest.Won(st), "%s seed %d", id, seed)
			require.LessOrEqual(t, turns, len(env.scramble), "%s seed %d", id, seed)
		}
	}
}
