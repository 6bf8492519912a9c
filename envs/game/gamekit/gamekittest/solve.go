package gamekittest

import (
	"testing"

	"github.com/gemgo/gemgo/envs"
	"github.com/stretchr/testify/require"
)

// Solver is a game's solver as eval's oracle policy plays it: the next
// action for the latest observation.
type Solver interface {
	Act(obs string) (string, error)
}

// maxSolveTurns bounds an episode whose env never ends it.
const maxSolveTurns = 10000

// Solve resets env to seed, makes a solver for the episode with newSolver
// and plays it to the end of the episode. It fails t when the env or the
// solver returns an error, a move is invalid, or the episode runs past
// 10000 turns; it returns the last step and the turns played.
func Solve(t testing.TB, env envs.Env, seed uint64, newSolver func() Solver) (envs.Step, int) {
	t.Helper()
	obs, _, err := env.Reset(seed)
	require.NoError(t, err, "reset seed %d", seed)
	s := newSolver()
	for turn := 1; turn <= maxSolveTurns; turn++ {
		a, err := s.Act(obs)
		require.NoError(t, err, "seed %d turn %d", seed, turn)
		st := Step(t, env, a)
		require.Nil(t, st.Info[envs.InfoInvalid], "seed %d turn %d: the solver's move %q is invalid: %s", seed, turn, a, st.Obs)
		if st.Done() {
			return st, turn
		}
		obs = st.Obs
	}
	require.FailNow(t, "the episode did not end", "seed %d: %d turns", seed, maxSolveTurns)
	return envs.Step{}, 0
}

// Won reports whether the last step of an episode is a win.
func Won(st envs.Step) bool { return st.Terminated && st.Info[envs.InfoSuccess] == true }
