package mastermind

import (
	"testing"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/game/gamekit/gamekittest"
	"github.com/stretchr/testify/require"
)

// The consistent-guess solver cracks every code of every level in both
// styles, well within the turn limits (it reads the pegs from the text).
func TestSolverCracksEveryCode(t *testing.T) {
	most := map[int]int{} // code length → most guesses
	for _, id := range []string{easyID, hardID, randomID} {
		for _, style := range []string{"gem", "brief"} {
			env := makeEnv(t, id, envs.With("style", style))
			g := env.(*Env)
			for seed := range uint64(50) {
				st, turns := gamekittest.Solve(t, env, seed, func() gamekittest.Solver { return NewSolver(g) })
				require.True(t, gamekittest.Won(st), "%s %s seed %d", id, style, seed)
				most[g.lv.Length] = max(most[g.lv.Length], turns)
			}
		}
	}
	require.LessOrEqual(t, most[2], 6, "2 of 6 digits")
	require.LessOrEqual(t, most[4], 10, "4 of 8 digits")
	t.Logf("most guesses by code length: %v", most)
}

func TestReadPegs(t *testing.T) {
	for _, tc := range []struct {
		obs          string
		black, white int
		ok           bool
	}{
		{"Turn 3: your guess 1 2 3 4 has 1 black peg and 2 white pegs. Enter your next guess.", 1, 2, true},
		{"Turn 1: your guess 5 6 has 0 black pegs and 1 white peg. Enter your next guess.", 0, 1, true},
		{"1 2 3 4: black 3, white 0; out of turns", 3, 0, true},
		{"You are playing Mastermind. After each guess you get black pegs (right digit ...", 0, 0, false},
	} {
		b, w, ok := readPegs(tc.obs)
		require.Equal(t, tc.ok, ok, tc.obs)
		require.Equal(t, [2]int{tc.black, tc.white}, [2]int{b, w}, tc.obs)
	}
}
