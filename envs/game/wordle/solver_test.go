package wordle

import (
	"testing"

	"github.com/gemgo/gemgo/envs/game/gamekit/gamekittest"
	"github.com/stretchr/testify/require"
)

// The solver finds every word of every level within the turn limit (5
// turns a letter), and almost always within Wordle's usual 6 guesses: of
// these 150 games, 5 take 7 guesses and none more (asserted with some
// slack: at most 8 games over 6, none over 8).
func TestSolverFindsEveryWord(t *testing.T) {
	long, games := 0, 0
	most := 0
	for _, level := range []string{"easy", "hard", "random"} {
		e, err := New(Config{Level: level})
		require.NoError(t, err)
		for seed := range uint64(50) {
			st, turns := gamekittest.Solve(t, e, seed, func() gamekittest.Solver { return NewSolver(e) })
			require.True(t, gamekittest.Won(st), "%s seed %d: %s", level, seed, e.Answer())
			games++
			if turns > 6 {
				long++
			}
			most = max(most, turns)
		}
	}
	t.Logf("%d of %d games took more than 6 guesses; the most took %d", long, games, most)
	require.LessOrEqual(t, long, 8)
	require.LessOrEqual(t, most, 8)
}

func TestReadMarks(t *testing.T) {
	dst := make([]byte, 5)
	require.True(t, readMarks("CRANE: G Y X X G. 3 turns left.", "crane", dst))
	require.Equal(t, "GYXXG", string(dst))
	require.True(t, readMarks("CRANE: G G G G G. Solved in 4 turns.", "crane", dst))
	require.Equal(t, "GGGGG", string(dst))
	require.False(t, readMarks("Invalid: CRANE was already guessed.", "crane", dst))
	require.False(t, readMarks("CRANE: G Y. 3 turns left.", "crane", dst))
}
