package hangman

import (
	"testing"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/game/gamekit/gamekittest"
	"github.com/stretchr/testify/require"
)

// The solver wins every 7-letter game and most 3-letter ones (10 turns):
// over seeds 0-49 it wins 41 easy, 50 hard and 48 random games (over
// seeds 0-999: 783, 1000 and 929). It loses only to 3-letter families
// such as _IT or _UG that need a turn per letter to tell apart.
func TestSolverWinRate(t *testing.T) {
	for _, tc := range []struct {
		level string
		min   float64 // the least win rate over 50 seeds
	}{
		{"easy", 0.8},
		{"hard", 1},
		{"random", 0.94},
	} {
		for _, style := range []string{"gem", "brief"} {
			e := gamekittest.Make[*Env](t, Register, "game:Hangman-v0-"+tc.level, envs.With("style", style))
			won := 0
			for seed := range uint64(50) {
				st, _ := gamekittest.Solve(t, e, seed, func() gamekittest.Solver { return NewSolver(e) })
				if gamekittest.Won(st) {
					won++
				} else {
					require.Equal(t, 3, len(e.Secret()), "%s seed %d: lost %s", tc.level, seed, e.Secret())
				}
			}
			rate := float64(won) / 50
			t.Logf("%s %s: win rate %.2f", tc.level, style, rate)
			require.GreaterOrEqual(t, rate, tc.min, "%s %s", tc.level, style)
		}
	}
}

func TestReadPattern(t *testing.T) {
	for obs, want := range map[string]string{
		"You are playing Hangman.\nWord: _ _ _":           "___",
		"A appears 1 time(s). Word: _ A _. 9 turns left.": "_a_",
		"Hangman: find it. Word: C A T":                   "cat",
	} {
		got, ok := readPattern(obs)
		require.True(t, ok, obs)
		require.Equal(t, want, got, obs)
	}
	_, ok := readPattern("Correct. Solved: CAT.")
	require.False(t, ok)
}
