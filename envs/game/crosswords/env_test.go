package crosswords

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/game/gamekit/gamekittest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func newEnv(t testing.TB, cfg Config) *Env {
	t.Helper()
	return gamekittest.New(t, New, cfg)
}

func step(t *testing.T, e *Env, action string) envs.Step {
	t.Helper()
	return gamekittest.Step(t, e, action)
}

func TestFillingTotalsOne(t *testing.T) {
	for _, level := range []string{"easy", "hard", "random"} {
		e := newEnv(t, Config{Level: level})
		for seed := range uint64(50) {
			_, info, err := e.Reset(seed)
			require.NoError(t, err)
			moves := e.Puzzle().Moves()
			require.LessOrEqual(t, len(moves), info[envs.InfoMaxTurns].(int), "a grid must fit in the turn limit")
			total := 0.0
			for i, m := range moves {
				st := step(t, e, m)
				assert.InDelta(t, 1/float64(len(moves)), st.Reward, 1e-12)
				total += st.Reward
				if i < len(moves)-1 {
					require.False(t, st.Done(), "seed %d move %d", seed, i)
					continue
				}
				require.True(t, st.Terminated)
				require.False(t, st.Truncated)
				require.Equal(t, true, st.Info[envs.InfoSuccess])
				require.Equal(t, len(moves), st.Info[envs.InfoTurn])
				require.Contains(t, st.Obs, "complete")
			}
			require.InDelta(t, 1.0, total, 1e-9)
		}
	}
}

func TestMovesAndMessages(t *testing.T) {
	e := newEnv(t, Config{Level: "easy"})
	_, _, err := e.Reset(3)
	require.NoError(t, err)
	p := e.Puzzle()
	// Find a letter cell and a black cell.
	letter, black := -1, -1
	for k, l := range p.Solution {
		if l != 0 && letter < 0 {
			letter = k
		}
		if l == 0 && black < 0 {
			black = k
		}
	}
	require.True(t, letter >= 0 && black >= 0)
	lr, lc := letter/p.Cols, letter%p.Cols
	br, bc := black/p.Cols, black%p.Cols
	right := p.Solution[letter]
	wrong := byte('a' + (right-'a'+1)%26)

	st := step(t, e, fmt.Sprintf(`\boxed{%d %d %c}`, lr, lc, wrong))
	assert.Equal(t, 0.0, st.Reward)
	assert.Nil(t, st.Info[envs.InfoInvalid])
	assert.True(t, strings.HasPrefix(st.Obs, fmt.Sprintf("%c is wrong at (%d,%d). 29 turns left.\n", wrong-'a'+'A', lr, lc)), st.Obs)

	st = step(t, e, fmt.Sprintf(`\boxed{(%d, %d) %c}`, lr, lc, right)) // lowercase and punctuation
	assert.InDelta(t, 1/float64(len(e.Puzzle().Moves())), st.Reward, 1e-12)
	assert.Contains(t, st.Obs, fmt.Sprintf("%c is right", right-'a'+'A'))

	for _, tc := range []struct{ action, obs string }{
		{fmt.Sprintf(`\boxed{%d %d %c}`, lr, lc, right), fmt.Sprintf("Invalid: (%d,%d) is already filled.", lr, lc)},
		{fmt.Sprintf(`\boxed{%d %d A}`, br, bc), fmt.Sprintf("Invalid: (%d,%d) is a black cell.", br, bc)},
		{`\boxed{-1 0 A}`, fmt.Sprintf("Invalid: the grid has rows 0-%d and columns 0-%d.", p.Rows-1, p.Cols-1)},
		{`\boxed{0 99999999999999999999 A}`, "Invalid: the grid has rows"},
	} {
		st := step(t, e, tc.action)
		assert.Equal(t, 0.0, st.Reward)
		assert.Equal(t, true, st.Info[envs.InfoInvalid], tc.action)
		assert.True(t, strings.HasPrefix(st.Obs, tc.obs), "%s: %s", tc.action, st.Obs)
		assert.False(t, st.Done())
	}
}

func TestGridText(t *testing.T) {
	e := newEnv(t, Config{Level: "easy", Style: envs.StyleBrief})
	// TEA across on row 1, BAT down in column 2, crossing at their A.
	e.puzzle = Puzzle{
		Rows: 3, Cols: 3,
		Entries: []Entry{
			{Word: "tea", Clue: "Hot drink", Row: 1, Col: 0},
			{Word: "bat", Clue: "Flying mammal", Row: 0, Col: 2, Down: true},
		},
		Solution: []byte{0, 0, 'b', 't', 'e', 'a', 0, 0, 't'},
	}
	checkPuzzle(t, e.puzzle, 2)
	e.filled = []byte{0, 0, 0, 0, 'e', 0, 0, 0, 0}
	e.setting = Setting{Words: 2, MaxTurns: 30, ShowLength: true}
	e.maxTurns = 30
	assert.Equal(t, "Crossword, 30 turns. Reply \\boxed{row col letter} (0-indexed). _ = empty, # = black.\n"+
		"Clues:\n"+
		"1. (1,0) across, 3 letters: Hot drink\n"+
		"2. (0,2) down, 3 letters: Flying mammal\n"+
		"Grid:\n"+
		"  0 1 2\n"+
		"0 # # _\n"+
		"1 _ E _\n"+
		"2 # # _", e.instructions())
	e.setting.ShowLength = false
	assert.Contains(t, e.instructions(), "1. (1,0) across: Hot drink\n")
}

func TestFormatErrorTerminates(t *testing.T) {
	e := newEnv(t, Config{})
	for _, a := range []string{"0 0 A", `\boxed{}`, `\boxed{0 0}`, `\boxed{0 0 AB}`, `\boxed{0 x A}`, `\boxed{0 0 1}`, `\boxed{1.5 0 A}`} {
		_, _, err := e.Reset(0)
		require.NoError(t, err)
		st := step(t, e, a)
		assert.Equal(t, envs.RewardFormatError, st.Reward, a)
		assert.True(t, st.Terminated, a)
		assert.Equal(t, true, st.Info[envs.InfoFormatError], a)
		assert.Equal(t, false, st.Info[envs.InfoSuccess], a)
		_, err = e.Step(`\boxed{0 0 A}`)
		assert.ErrorIs(t, err, envs.ErrNotReset)
	}
}

func TestTurnLimitTruncates(t *testing.T) {
	e := newEnv(t, Config{Level: "hard", MaxTurns: 2})
	_, info, err := e.Reset(5)
	require.NoError(t, err)
	require.Equal(t, 2, info[envs.InfoMaxTurns])
	moves := e.Puzzle().Moves()
	step(t, e, moves[0])
	st := step(t, e, moves[1])
	assert.InDelta(t, 1/float64(len(moves)), st.Reward, 1e-12)
	assert.True(t, st.Truncated)
	assert.False(t, st.Terminated)
	assert.Equal(t, false, st.Info[envs.InfoSuccess])
	_, err = e.Step(moves[2])
	assert.ErrorIs(t, err, envs.ErrNotReset)
}

func TestLevelsAndDeterminism(t *testing.T) {
	e := newEnv(t, Config{Level: "random"})
	f := newEnv(t, Config{Level: "random"})
	turns := map[int]bool{}
	for seed := range uint64(50) {
		oa, ia, _ := e.Reset(seed)
		ob, _, _ := f.Reset(seed)
		require.Equal(t, oa, ob)
		require.Equal(t, e.Puzzle(), f.Puzzle())
		turns[ia[envs.InfoMaxTurns].(int)] = true
		require.Equal(t, ia[envs.InfoMaxTurns] == 30, strings.Contains(oa, " letters: "), "easy shows lengths, hard does not")
	}
	assert.Equal(t, map[int]bool{30: true, 40: true}, turns)
}

func TestSampleActionParses(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	e := newEnv(t, Config{Level: "random"})
	_, ok := ParseMove(e.SampleAction(r))
	require.True(t, ok)
	for seed := range uint64(100) {
		_, _, err := e.Reset(seed)
		require.NoError(t, err)
		for {
			a := e.SampleAction(r)
			m, ok := ParseMove(a)
			require.True(t, ok, a)
			require.NotZero(t, e.Puzzle().At(m.Row, m.Col), "samples aim at letter cells: %s", a)
			st := step(t, e, a)
			require.Nil(t, st.Info[envs.InfoInvalid], "samples aim at empty cells: %s", a)
			if st.Done() {
				break
			}
		}
	}
}

func TestParseMove(t *testing.T) {
	for in, want := range map[string]Move{
		`\boxed{1 2 E}`:                       {1, 2, 'e'},
		`\boxed{ 0,3, a }`:                    {0, 3, 'a'},
		`\boxed{(4, 5) z}`:                    {4, 5, 'z'},
		`x \boxed{1 1 q} \boxed{-2 +3 Q}`:     {-2, 3, 'q'},
		`\boxed{1 99999999999999999999999 A}`: {1, maxInt, 'a'},
	} {
		got, ok := ParseMove(in)
		assert.True(t, ok, in)
		assert.Equal(t, want, got, in)
	}
	for _, in := range []string{"1 2 E", `\boxed{1 2}`, `\boxed{1 2 E F}`, `\boxed{1 2 EF}`, `\boxed{a 2 E}`, `\boxed{1 2 3}`, `\boxed{1 2 é}`, `\boxed{- 2 E}`, `\boxed{1 2 @}`} {
		_, ok := ParseMove(in)
		assert.False(t, ok, in)
	}
}

func FuzzParseMove(f *testing.F) {
	for _, s := range []string{`\boxed{1 2 E}`, `\boxed{(1,2) e}`, `\boxed{-1 -1 a}`, `\boxed{}`, "\\boxed{1 2 \xff}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, ok := ParseMove(s)
		if !ok {
			return
		}
		if m.Letter < 'a' || m.Letter > 'z' || m.Row > maxInt || m.Row < -maxInt || m.Col > maxInt || m.Col < -maxInt {
			t.Fatalf("ParseMove(%q) = %+v", s, m)
		}
		again, ok := ParseMove(fmt.Sprintf(`\boxed{%d %d %c}`, m.Row, m.Col, m.Letter-'a'+'A'))
		if !ok || again != m {
			t.Fatalf("round trip of %+v gave %+v, %v", m, again, ok)
		}
	})
}

// FuzzStep: any response is a format error exactly when ParseMove fails;
// otherwise the reward is within [0, 1] and nothing panics.
func FuzzStep(f *testing.F) {
	for _, s := range []string{`\boxed{0 0 A}`, `\boxed{1 2 3 4}`, `\boxed{}`, `\boxed{(1,2) e}`, "\\boxed{\xff}", `\boxed{-1 5 z}`} {
		f.Add(uint64(1), s)
	}
	e := newEnv(f, Config{Level: "random"})
	f.Fuzz(func(t *testing.T, seed uint64, action string) {
		_, _, err := e.Reset(seed)
		require.NoError(t, err)
		st, err := e.Step(action)
		require.NoError(t, err)
		_, parsed := ParseMove(action)
		require.Equal(t, !parsed, st.Info[envs.InfoFormatError] == true)
		if !parsed {
			require.Equal(t, envs.RewardFormatError, st.Reward)
			require.True(t, st.Terminated)
			return
		}
		require.GreaterOrEqual(t, st.Reward, 0.0)
		require.LessOrEqual(t, st.Reward, 1.0)
	})
}

func TestPad(t *testing.T) {
	for _, tc := range []struct {
		w, n int
		want string
	}{{1, 0, "0"}, {2, 3, " 3"}, {2, 11, "11"}, {2, -1, "  "}, {3, 7, "  7"}} {
		var b strings.Builder
		pad(&b, tc.w, tc.n)
		assert.Equal(t, tc.want, b.String(), "%+v", tc)
	}
	assert.Equal(t, []int{1, 1, 2, 2, 3}, []int{digits(0), digits(9), digits(10), digits(99), digits(100)})
}
