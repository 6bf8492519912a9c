package wordsearch

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/game/gamekit/gamekittest"
	"github.com/gemgo/gemgo/envs/game/words"
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

func TestFindingAllTotalsOne(t *testing.T) {
	for _, level := range []string{"easy", "hard", "random"} {
		e := newEnv(t, Config{Level: level})
		for seed := range uint64(100) {
			_, _, err := e.Reset(seed)
			require.NoError(t, err)
			g := e.Grid()
			total := 0.0
			for i, p := range g.Words {
				a := p.Move()
				if i%2 == 1 { // either order of the ends
					er, ec := p.End()
					a = fmt.Sprintf(`\boxed{(%d, %d), (%d, %d)}`, er, ec, p.Row, p.Col)
				}
				st := step(t, e, a)
				assert.InDelta(t, 1/float64(len(g.Words)), st.Reward, 1e-12, a)
				total += st.Reward
				if i < len(g.Words)-1 {
					require.False(t, st.Done())
					continue
				}
				require.True(t, st.Terminated)
				require.False(t, st.Truncated)
				require.Equal(t, true, st.Info[envs.InfoSuccess])
				require.Contains(t, st.Obs, "All words found.")
			}
			require.InDelta(t, 1.0, total, 1e-9)
		}
	}
}

func TestMovesAndMessages(t *testing.T) {
	e := newEnv(t, Config{Level: "easy"})
	_, _, err := e.Reset(11)
	require.NoError(t, err)
	g := e.Grid()
	p := g.Words[0]
	er, ec := p.End()
	st := step(t, e, fmt.Sprintf(`\boxed{%d %d %d %d}`, er, ec, p.Row, p.Col))
	left := make([]string, 0, 4)
	for _, q := range g.Words[1:] {
		left = append(left, strings.ToUpper(q.Word))
	}
	assert.Equal(t, fmt.Sprintf("Found %s (1 of 5). Left: %s. 19 turns left.", strings.ToUpper(p.Word), strings.Join(left, " ")), st.Obs)
	assert.InDelta(t, 0.2, st.Reward, 1e-12)

	st = step(t, e, fmt.Sprintf(`\boxed{%d %d %d %d}`, p.Row, p.Col, er, ec))
	assert.Equal(t, true, st.Info[envs.InfoInvalid])
	assert.True(t, strings.HasPrefix(st.Obs, fmt.Sprintf("Invalid: %s was already found.", strings.ToUpper(p.Word))), st.Obs)

	for _, tc := range []struct {
		action  string
		invalid bool
		prefix  string
	}{
		{`\boxed{0 0 1 2}`, true, "Invalid: the ends must be inside the 8x8 grid"},
		{`\boxed{0 0 0 8}`, true, "Invalid: the ends must be inside"},
		{`\boxed{-1 0 0 0}`, true, "Invalid: the ends must be inside"},
		{`\boxed{99999999999999999999 0 0 0}`, true, "Invalid: the ends must be inside"},
	} {
		st := step(t, e, tc.action)
		assert.Equal(t, 0.0, st.Reward)
		assert.Equal(t, tc.invalid, st.Info[envs.InfoInvalid] == true, tc.action)
		assert.True(t, strings.HasPrefix(st.Obs, tc.prefix), "%s: %s", tc.action, st.Obs)
		assert.False(t, st.Done())
	}
	// A single cell spells no hidden word (every word has 3 letters or more).
	st = step(t, e, `\boxed{0 0 0 0}`)
	assert.Equal(t, 0.0, st.Reward)
	assert.Nil(t, st.Info[envs.InfoInvalid])
	assert.True(t, strings.HasPrefix(st.Obs, "No hidden word from (0,0) to (0,0)."), st.Obs)
}

func TestInstructions(t *testing.T) {
	e := newEnv(t, Config{Level: "easy", Style: envs.StyleBrief})
	obs, info, err := e.Reset(2)
	require.NoError(t, err)
	assert.Equal(t, 20, info[envs.InfoMaxTurns])
	lines := strings.Split(obs, "\n")
	require.Len(t, lines, 1+1+1+1+8) // instruction, words, "Grid:", header, 8 rows
	assert.Equal(t, `Word search, 20 turns. Reply \boxed{r1 c1 r2 c2}: both ends of a word (0-indexed).`, lines[0])
	assert.Equal(t, "  0 1 2 3 4 5 6 7", lines[3])
	g := e.Grid()
	for r := range 8 {
		var want strings.Builder
		fmt.Fprintf(&want, "%d", r)
		for c := range 8 {
			want.WriteByte(' ')
			want.WriteByte(g.At(r, c) - 'a' + 'A')
		}
		assert.Equal(t, want.String(), lines[4+r])
	}
	for _, p := range g.Words {
		assert.Contains(t, lines[1], strings.ToUpper(p.Word))
	}
	h := newEnv(t, Config{Level: "hard"})
	obs, _, err = h.Reset(2)
	require.NoError(t, err)
	assert.Contains(t, obs, "any of the 8 directions")
	assert.Contains(t, obs, "\n    0  1  2  3  4  5  6  7  8  9 10 11\n")
}

func TestFormatErrorTerminates(t *testing.T) {
	e := newEnv(t, Config{})
	for _, a := range []string{"0 0 0 4", `\boxed{}`, `\boxed{0 0 0}`, `\boxed{0 0 0 4 5}`, `\boxed{a b c d}`, `\boxed{0.5 0 0 4}`, `\boxed{CAT}`} {
		_, _, err := e.Reset(0)
		require.NoError(t, err)
		st := step(t, e, a)
		assert.Equal(t, envs.RewardFormatError, st.Reward, a)
		assert.True(t, st.Terminated, a)
		assert.Equal(t, true, st.Info[envs.InfoFormatError], a)
		assert.Equal(t, false, st.Info[envs.InfoSuccess], a)
		_, err = e.Step(`\boxed{0 0 0 4}`)
		assert.ErrorIs(t, err, envs.ErrNotReset)
	}
}

func TestTurnLimitTruncates(t *testing.T) {
	e := newEnv(t, Config{Level: "hard", MaxTurns: 2})
	_, info, err := e.Reset(5)
	require.NoError(t, err)
	require.Equal(t, 2, info[envs.InfoMaxTurns])
	step(t, e, `\boxed{0 0 0 0}`)
	p := e.Grid().Words[0]
	er, ec := p.End()
	st := step(t, e, fmt.Sprintf(`\boxed{%d %d %d %d}`, p.Row, p.Col, er, ec))
	assert.InDelta(t, 0.2, st.Reward, 1e-12)
	assert.True(t, st.Truncated)
	assert.False(t, st.Terminated)
	assert.Equal(t, false, st.Info[envs.InfoSuccess])
	_, err = e.Step(`\boxed{0 0 0 0}`)
	assert.ErrorIs(t, err, envs.ErrNotReset)
}

func TestLevelsAndDeterminism(t *testing.T) {
	e := newEnv(t, Config{Level: "random"})
	f := newEnv(t, Config{Level: "random"})
	sizes := map[int]bool{}
	for seed := range uint64(40) {
		oa, _, _ := e.Reset(seed)
		ob, _, _ := f.Reset(seed)
		require.Equal(t, oa, ob)
		require.Equal(t, e.Grid(), f.Grid())
		sizes[e.Grid().Size] = true
	}
	assert.Equal(t, map[int]bool{8: true, 12: true}, sizes)
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
			g := e.Grid()
			_, line := g.Read(nil, m.R1, m.C1, m.R2, m.C2)
			require.True(t, line, "samples are straight lines inside the grid: %s", a)
			st := step(t, e, a)
			if st.Done() {
				break
			}
		}
	}
}

func TestNewErrors(t *testing.T) {
	_, err := New(Config{Level: "medium"})
	assert.ErrorContains(t, err, "want easy, hard or random")
	_, err = New(Config{Level: "hard", Words: words.NewList([]string{"cat", "dog", "crane"})})
	assert.ErrorContains(t, err, "want at least 20")
	e := newEnv(t, Config{})
	_, err = e.Step(`\boxed{0 0 0 0}`)
	assert.ErrorIs(t, err, envs.ErrNotReset)
}

func TestParseMove(t *testing.T) {
	for in, want := range map[string]Move{
		`\boxed{1 2 3 4}`:                    {1, 2, 3, 4},
		`\boxed{(0, 1), (2, 3)}`:             {0, 1, 2, 3},
		`\boxed{0,0,0,4}`:                    {0, 0, 0, 4},
		`x \boxed{9} \boxed{-1 +2 3 4}`:      {-1, 2, 3, 4},
		`\boxed{1 1 1 99999999999999999999}`: {1, 1, 1, maxInt},
	} {
		got, ok := ParseMove(in)
		assert.True(t, ok, in)
		assert.Equal(t, want, got, in)
	}
	for _, in := range []string{"1 2 3 4", `\boxed{1 2 3}`, `\boxed{1 2 3 4 5}`, `\boxed{1 2 3 x}`, `\boxed{1 2 3 -}`, `\boxed{1 2 3 4.0}`} {
		_, ok := ParseMove(in)
		assert.False(t, ok, in)
	}
}

func FuzzParseMove(f *testing.F) {
	for _, s := range []string{`\boxed{1 2 3 4}`, `\boxed{(1,2),(3,4)}`, `\boxed{-1 -1 0 0}`, `\boxed{}`, "\\boxed{1 2 3 \xff}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, ok := ParseMove(s)
		if !ok {
			return
		}
		for _, v := range []int{m.R1, m.C1, m.R2, m.C2} {
			if v > maxInt || v < -maxInt {
				t.Fatalf("ParseMove(%q) = %+v", s, m)
			}
		}
		again, ok := ParseMove(fmt.Sprintf(`\boxed{%d %d %d %d}`, m.R1, m.C1, m.R2, m.C2))
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
