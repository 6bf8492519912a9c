package envs_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/envtest"
)

// solvedToy is envtest.Toy with a solver that reads the hidden digit.
type solvedToy struct{ *envtest.Toy }

type toySolver struct{ digit int }

func (s toySolver) Act(string) (string, error) { return envs.Boxed(fmt.Sprint(s.digit)), nil }

func (e solvedToy) NewSolver() envs.Solver { return toySolver{envtest.ToyTarget(seed8)} }

// wrapperSolver is a wrapper with a solver of its own.
type wrapperSolver struct{ *envs.TimeLimit }

func (wrapperSolver) NewSolver() envs.Solver { return toySolver{-1} }

// SolverOf finds the solver under every wrapper of package envs, prefers
// a wrapper's own, and reports none for an env without one, wrapped or
// not.
func TestSolverOfLooksUnderWrappers(t *testing.T) {
	inner := solvedToy{envtest.NewToy(5)}
	limited, err := envs.NewTimeLimit(inner, 4)
	require.NoError(t, err)
	hist, err := envs.WithHistory(limited, envs.HistoryActions, 0)
	require.NoError(t, err)
	random, err := envs.NewRandomStart(hist, 0.5, 2)
	require.NoError(t, err)
	env := envs.NewEpisodeStats(random)
	m, ok := envs.SolverOf(env)
	require.True(t, ok)
	require.Equal(t, inner, m)
	_, _, err = env.Reset(seed8)
	require.NoError(t, err)
	a, err := m.NewSolver().Act("")
	require.NoError(t, err)
	st, err := env.Step(a)
	require.NoError(t, err)
	require.True(t, st.Terminated)
	require.Equal(t, 1.0, st.Reward, "the solver's digit is the hidden one")

	own := wrapperSolver{limited}
	m, ok = envs.SolverOf(own)
	require.True(t, ok)
	require.Equal(t, own, m, "a wrapper's own solver comes first")

	plain, err := envs.NewTimeLimit(envtest.NewToy(5), 4)
	require.NoError(t, err)
	_, ok = envs.SolverOf(plain)
	require.False(t, ok)
	_, ok = envs.SolverOf(envtest.NewToy(5))
	require.False(t, ok)
}
