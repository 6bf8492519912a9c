package wordle

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/game/gamekit/gamekittest"
	"github.com/gemgo/gemgo/envs/game/words"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fixed returns an env whose only words are ws (so the answer is known).
func fixed(t *testing.T, level string, ws ...string) *Env {
	t.Helper()
	e, err := New(Config{Level: level, Words: words.NewList(ws)})
	require.NoError(t, err)
	return e
}

// resetTo resets e with the first seed whose answer is want.
func resetTo(t *testing.T, e *Env, want string) envs.Info {
	t.Helper()
	for seed := range uint64(1000) {
		_, info, err := e.Reset(seed)
		require.NoError(t, err)
		if e.Answer() == want {
			return info
		}
	}
	t.Fatalf("no seed below 1000 gives %q", want)
	return nil
}

func step(t *testing.T, e *Env, action string) envs.Step {
	t.Helper()
	return gamekittest.Step(t, e, action)
}

func TestRewardsNewGreensAndSolve(t *testing.T) {
	e := fixed(t, "hard", "crane", "trace", "crate", "brine", "plumb")
	info := resetTo(t, e, "crane")
	require.Equal(t, 25, info[envs.InfoMaxTurns])

	st := step(t, e, `\boxed{PLUMB}`)
	assert.Equal(t, "PLUMB: X X X X X. 24 turns left.", st.Obs)
	assert.Equal(t, 0.0, st.Reward)

	st = step(t, e, `I think \boxed{trace}`) // T R A C E vs C R A N E: R, A, E green; C yellow
	assert.Equal(t, "TRACE: X G G Y G. 23 turns left.", st.Obs)
	assert.InDelta(t, 0.5*3/5, st.Reward, 1e-12)

	st = step(t, e, `\boxed{Crate}`) // C green (new); R, A already green; T gray; E green (old)
	assert.Equal(t, "CRATE: G G G X G. 22 turns left.", st.Obs)
	assert.InDelta(t, 0.5*1/5, st.Reward, 1e-12)

	st = step(t, e, `\boxed{CRANE}`) // N green (new), solve
	assert.InDelta(t, 0.5*1/5+0.5, st.Reward, 1e-12)
	assert.True(t, st.Terminated)
	assert.False(t, st.Truncated)
	assert.Equal(t, true, st.Info[envs.InfoSuccess])
	assert.Equal(t, 4, st.Info[envs.InfoTurn])
	assert.Equal(t, "CRANE: G G G G G. Solved in 4 turns.", st.Obs)

	_, err := e.Step(`\boxed{CRANE}`)
	assert.ErrorIs(t, err, envs.ErrNotReset)
}

// Over many seeds and random play, every solve totals exactly 1.0.
func TestEverySolveTotalsOne(t *testing.T) {
	for _, level := range []string{"easy", "hard", "random"} {
		e, err := New(Config{Level: level})
		require.NoError(t, err)
		r := rand.New(rand.NewPCG(3, 4))
		for seed := range uint64(200) {
			_, _, err := e.Reset(seed)
			require.NoError(t, err)
			total := 0.0
			for k := 0; ; k++ {
				a := e.SampleAction(r)
				if k == 3 {
					a = envs.Boxed(e.Answer())
				}
				st := step(t, e, a)
				total += st.Reward
				if st.Done() {
					require.True(t, st.Terminated)
					require.Equal(t, true, st.Info[envs.InfoSuccess])
					break
				}
			}
			require.InDelta(t, 1.0, total, 1e-9, "level %s seed %d", level, seed)
		}
	}
}

func TestInvalidMovesGoOn(t *testing.T) {
	e := fixed(t, "easy", "cat", "dog", "crane")
	resetTo(t, e, "cat")
	for i, tc := range []struct{ action, obs string }{
		{`\boxed{CRANE}`, "Invalid: CRANE has 5 letters, the word has 3. 14 turns left."},
		{`\boxed{xyz}`, "Invalid: XYZ is not in the word list. 13 turns left."},
		{`\boxed{dog}`, "DOG: X X X. 12 turns left."},
		{`\boxed{DOG}`, "Invalid: DOG was already guessed. 11 turns left."},
		{`\boxed{abcdefghijklmnop}`, "Invalid: that guess has 16 letters, the word has 3. 10 turns left."},
	} {
		st := step(t, e, tc.action)
		assert.Equal(t, tc.obs, st.Obs)
		assert.Equal(t, 0.0, st.Reward)
		assert.False(t, st.Done())
		assert.Equal(t, i+1, st.Info[envs.InfoTurn])
		assert.Equal(t, strings.HasPrefix(tc.obs, "Invalid"), st.Info[envs.InfoInvalid] == true, tc.action)
	}
}

func TestFormatErrorTerminates(t *testing.T) {
	e := fixed(t, "easy", "cat")
	for _, a := range []string{"cat", `\boxed{}`, `\boxed{c4t}`, `\boxed{c a t}`, `\boxed{cat`, `\boxed{ü}`} {
		_, _, err := e.Reset(0)
		require.NoError(t, err)
		st := step(t, e, a)
		assert.Equal(t, envs.RewardFormatError, st.Reward, a)
		assert.True(t, st.Terminated, a)
		assert.False(t, st.Truncated, a)
		assert.Equal(t, true, st.Info[envs.InfoFormatError], a)
		assert.Equal(t, false, st.Info[envs.InfoSuccess], a)
		_, err = e.Step(`\boxed{cat}`)
		assert.ErrorIs(t, err, envs.ErrNotReset)
	}
}

func TestTurnLimitTruncates(t *testing.T) {
	e, err := New(Config{Level: "easy", MaxTurns: 2, Words: words.NewList([]string{"cat", "cot", "dog"})})
	require.NoError(t, err)
	_, info, err := e.Reset(0)
	require.NoError(t, err)
	require.Equal(t, 2, info[envs.InfoMaxTurns])
	answer := e.Answer()
	wrong := "dog"
	if answer == "dog" {
		wrong = "cat"
	}
	st := step(t, e, envs.Boxed(wrong))
	require.False(t, st.Done())
	st = step(t, e, `\boxed{nope}`) // invalid moves count as turns too
	assert.True(t, st.Truncated)
	assert.False(t, st.Terminated)
	assert.Equal(t, false, st.Info[envs.InfoSuccess])
	assert.Contains(t, st.Obs, "the word was "+strings.ToUpper(answer))
	_, err = e.Step(`\boxed{cat}`)
	assert.ErrorIs(t, err, envs.ErrNotReset)
}

func TestStepBeforeReset(t *testing.T) {
	e, err := New(Config{})
	require.NoError(t, err)
	_, err = e.Step(`\boxed{cat}`)
	assert.ErrorIs(t, err, envs.ErrNotReset)
}

func TestDeterministicAndVaried(t *testing.T) {
	a, err := New(Config{Level: "random"})
	require.NoError(t, err)
	b, err := New(Config{Level: "random"})
	require.NoError(t, err)
	seen := map[string]bool{}
	lengths := map[int]bool{}
	for seed := range uint64(100) {
		oa, _, _ := a.Reset(seed)
		ob, _, _ := b.Reset(seed)
		require.Equal(t, oa, ob)
		require.Equal(t, a.Answer(), b.Answer())
		seen[a.Answer()] = true
		lengths[len(a.Answer())] = true
		// Playing does not change what a seed gives.
		_, _ = a.Step(a.SampleAction(rand.New(rand.NewPCG(seed, 0))))
		a.Reset(seed)
		require.Equal(t, b.Answer(), a.Answer())
	}
	assert.Greater(t, len(seen), 80, "100 seeds should give many different words")
	assert.Equal(t, map[int]bool{3: true, 4: true, 5: true}, lengths)
}

func TestSampleActionIsAValidGuess(t *testing.T) {
	for _, level := range []string{"easy", "hard", "random"} {
		e, err := New(Config{Level: level})
		require.NoError(t, err)
		r := rand.New(rand.NewPCG(9, 9))
		before, ok := ParseGuess(e.SampleAction(r))
		require.True(t, ok)
		require.True(t, words.Common().Contains(before))
		for seed := range uint64(300) {
			_, _, err := e.Reset(seed)
			require.NoError(t, err)
			g, ok := ParseGuess(e.SampleAction(r))
			require.True(t, ok)
			require.Len(t, g, len(e.Answer()))
			require.True(t, words.Common().Contains(g))
		}
	}
}

func TestBriefStyle(t *testing.T) {
	e, err := New(Config{Level: "hard", Style: envs.StyleBrief})
	require.NoError(t, err)
	obs, _, err := e.Reset(1)
	require.NoError(t, err)
	assert.Equal(t, `Wordle: guess the 5-letter word in 25 turns. Reply \boxed{WORD}. G=right spot, Y=wrong spot, X=absent.`, obs)
	assert.NotContains(t, obs, "\n")
}

func TestNewErrors(t *testing.T) {
	_, err := New(Config{Level: "medium"})
	assert.ErrorContains(t, err, "want easy, hard or random")
	_, err = New(Config{Level: "random", Words: words.NewList([]string{"cat", "crane"})})
	assert.ErrorContains(t, err, "no 4-letter words")
	_, err = New(Config{MaxTurns: -1})
	assert.ErrorContains(t, err, "MaxTurns")
}

func TestParseGuess(t *testing.T) {
	for in, want := range map[string]string{
		`\boxed{CRANE}`:                "crane",
		`\boxed{ crane }`:              "crane",
		`\boxed{a} then \boxed{SlAtE}`: "slate",
	} {
		got, ok := ParseGuess(in)
		assert.True(t, ok, in)
		assert.Equal(t, want, got, in)
	}
	for _, in := range []string{"", "crane", `\boxed{}`, `\boxed{cra ne}`, `\boxed{crane!}`, `\boxed{CRANE} \boxed{1}`} {
		_, ok := ParseGuess(in)
		assert.False(t, ok, in)
	}
}

func FuzzParseGuess(f *testing.F) {
	for _, s := range []string{`\boxed{CRANE}`, `\boxed{}`, `\boxed{{a}}`, `x \boxed{AbC} y`, "\\boxed{\xff}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		g, ok := ParseGuess(s)
		if !ok {
			return
		}
		if !words.IsWord(g) {
			t.Fatalf("ParseGuess(%q) = %q: not lowercase a-z", s, g)
		}
		again, ok := ParseGuess(envs.Boxed(strings.ToUpper(g)))
		if !ok || again != g {
			t.Fatalf("round trip of %q gave %q, %v", g, again, ok)
		}
	})
}

// FuzzStep: any response is a format error exactly when ParseGuess fails;
// otherwise the reward is within [0, 1] and nothing panics.
func FuzzStep(f *testing.F) {
	for _, s := range []string{`\boxed{CRANE}`, `\boxed{cat}`, `\boxed{}`, `\boxed{a b}`, "\\boxed{\xff}", `\boxed{{x}}`} {
		f.Add(uint64(1), s)
	}
	e, err := New(Config{Level: "random"})
	require.NoError(f, err)
	f.Fuzz(func(t *testing.T, seed uint64, action string) {
		_, _, err := e.Reset(seed)
		require.NoError(t, err)
		st, err := e.Step(action)
		require.NoError(t, err)
		_, parsed := ParseGuess(action)
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
