package hanoi

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/game/gamekit/gamekittest"
)

// The solver wins every game of every level in the fewest moves, 2^n−1.
func TestSolverWinsInFewestMoves(t *testing.T) {
	for _, id := range []string{easyID, hardID, randomID} {
		env := makeEnv(t, id)
		g := env.(*Env)
		for seed := range uint64(50) {
			st, turns := gamekittest.Solve(t, env, seed, func() gamekittest.Solver { return NewSolver(g) })
			require.True(t, gamekittest.Won(st), "%s seed %d", id, seed)
			require.Equal(t, 1<<g.lv.Disks-1, turns, "%s seed %d", id, seed)
		}
	}
}

// From a position reached by random legal moves (never 4 disks on C,
// which a move could turn into a win), the solver still wins,
// within the 2^n−1 moves that bound the distance of any position to the
// goal.
func TestSolverFinishesAnyPosition(t *testing.T) {
	env := makeEnv(t, easyID, envs.With("disks", 5), envs.With("max_turns", 100))
	g := env.(*Env)
	s := NewSolver(g)
	rng := rand.New(rand.NewPCG(1, 2))
	for seed := range uint64(50) {
		_, _, err := env.Reset(seed)
		require.NoError(t, err)
		for range 1 + rng.IntN(30) {
			if from, to := rng.IntN(3), rng.IntN(3); g.check(from, to) == nil && len(g.pegs[2]) < 4 {
				step(t, env, envs.Boxed(string(rune('A'+from))+" "+string(rune('A'+to))))
			}
		}
		for turns := 1; ; turns++ {
			require.LessOrEqual(t, turns, 31, "seed %d", seed)
			a, err := s.Act("")
			require.NoError(t, err)
			st := step(t, env, a)
			require.Nil(t, st.Info[envs.InfoInvalid], "seed %d: %s", seed, a)
			if st.Done() {
				require.True(t, gamekittest.Won(st), "seed %d", seed)
				break
			}
		}
	}
}
