package hangman

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

// resetTo resets e with the first seed whose secret is want.
func resetTo(t *testing.T, e *Env, want string) {
	t.Helper()
	for seed := range uint64(1000) {
		_, _, err := e.Reset(seed)
		require.NoError(t, err)
		if e.Secret() == want {
			return
		}
	}
	t.Fatalf("no seed below 1000 gives %q", want)
}

func step(t *testing.T, e *Env, action string) envs.Step {
	t.Helper()
	return gamekittest.Step(t, e, action)
}

func newEnv(t *testing.T, cfg Config) *Env {
	t.Helper()
	return gamekittest.New(t, New, cfg)
}

func TestLetterPathWins(t *testing.T) {
	e := newEnv(t, Config{Level: "hard", Words: words.NewList([]string{"balloon", "cabbage"})})
	resetTo(t, e, "balloon")
	for _, tc := range []struct {
		action string
		reward float64
		obs    string
	}{
		{`\boxed{l}`, 0.5 * 2 / 7, "L appears 2 time(s). Word: _ _ L L _ _ _. 19 turns left."},
		{`\boxed{Z}`, 0, "No Z in the word. Word: _ _ L L _ _ _. 18 turns left."},
		{`\boxed{o}`, 0.5 * 2 / 7, "O appears 2 time(s). Word: _ _ L L O O _. 17 turns left."},
		{`\boxed{B}`, 0.5 * 1 / 7, "B appears 1 time(s). Word: B _ L L O O _. 16 turns left."},
		{`\boxed{a}`, 0.5 * 1 / 7, "A appears 1 time(s). Word: B A L L O O _. 15 turns left."},
	} {
		st := step(t, e, tc.action)
		assert.InDelta(t, tc.reward, st.Reward, 1e-12, tc.action)
		assert.Equal(t, tc.obs, st.Obs)
		assert.False(t, st.Done())
	}
	// The last hidden letter: its share plus the 0.5 solve share, and the end.
	st := step(t, e, `\boxed{N}`)
	assert.InDelta(t, 0.5*1/7+0.5, st.Reward, 1e-12)
	assert.True(t, st.Terminated)
	assert.False(t, st.Truncated)
	assert.Equal(t, true, st.Info[envs.InfoSuccess])
	assert.Equal(t, 6, st.Info[envs.InfoTurn])
	assert.Equal(t, "N appears 1 time(s). Solved: BALLOON.", st.Obs)
	_, err := e.Step(`\boxed{x}`)
	assert.ErrorIs(t, err, envs.ErrNotReset)
}

func TestWordPathWins(t *testing.T) {
	e := newEnv(t, Config{Level: "hard", Words: words.NewList([]string{"balloon", "cabbage"})})
	resetTo(t, e, "cabbage")
	st := step(t, e, `\boxed{b}`)
	assert.InDelta(t, 0.5*2/7, st.Reward, 1e-12)
	st = step(t, e, `\boxed{BALLOON}`)
	assert.Equal(t, 0.0, st.Reward)
	assert.Equal(t, "BALLOON is not the word. Word: _ _ B B _ _ _. 18 turns left.", st.Obs)
	st = step(t, e, `\boxed{CaBbAgE}`)
	assert.InDelta(t, 0.5*5/7+0.5, st.Reward, 1e-12)
	assert.True(t, st.Terminated)
	assert.Equal(t, true, st.Info[envs.InfoSuccess])
	assert.Equal(t, "Correct. Solved: CABBAGE.", st.Obs)
}

// Over many seeds, levels and strategies (letters only, or a word guess
// after some letters), every solve totals exactly 1.0.
func TestEverySolveTotalsOne(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, level := range []string{"easy", "hard", "random"} {
		e := newEnv(t, Config{Level: level, MaxTurns: 100})
		for seed := range uint64(300) {
			_, _, err := e.Reset(seed)
			require.NoError(t, err)
			secret := e.Secret()
			byWord := seed%2 == 0
			letters := r.Perm(26)
			total := 0.0
			for k := 0; ; k++ {
				a := envs.Boxed(string(rune('a' + letters[k%26])))
				if byWord && k == 4 {
					a = envs.Boxed(strings.ToUpper(secret))
				}
				st := step(t, e, a)
				total += st.Reward
				if st.Done() {
					require.True(t, st.Terminated, "level %s seed %d", level, seed)
					require.Equal(t, true, st.Info[envs.InfoSuccess])
					break
				}
			}
			require.InDelta(t, 1.0, total, 1e-9, "level %s seed %d word %s", level, seed, secret)
		}
	}
}

func TestInvalidMoves(t *testing.T) {
	e := newEnv(t, Config{Level: "easy", Words: words.NewList([]string{"cat", "dog"})})
	resetTo(t, e, "cat")
	for _, tc := range []struct {
		action  string
		invalid bool
		obs     string
	}{
		{`\boxed{t}`, false, "T appears 1 time(s). Word: _ _ T. 9 turns left."},
		{`\boxed{T}`, true, "Invalid: T was already guessed. Word: _ _ T. 8 turns left."},
		{`\boxed{dog}`, false, "DOG is not the word. Word: _ _ T. 7 turns left."},
		{`\boxed{DOG}`, true, "Invalid: DOG was already guessed. Word: _ _ T. 6 turns left."},
		{`\boxed{kitten}`, true, "Invalid: KITTEN has 6 letters, the word has 3. Word: _ _ T. 5 turns left."},
		{`\boxed{q}`, false, "No Q in the word. Word: _ _ T. 4 turns left."},
	} {
		st := step(t, e, tc.action)
		assert.Equal(t, tc.obs, st.Obs)
		assert.Equal(t, tc.invalid, st.Info[envs.InfoInvalid] == true, tc.action)
		assert.False(t, st.Done())
		if tc.action != `\boxed{t}` {
			assert.Equal(t, 0.0, st.Reward)
		}
	}
}

func TestFormatErrorTerminates(t *testing.T) {
	e := newEnv(t, Config{})
	for _, a := range []string{"e", `\boxed{}`, `\boxed{1}`, `\boxed{e t}`, `\boxed{e`, `\boxed{é}`} {
		_, _, err := e.Reset(0)
		require.NoError(t, err)
		st := step(t, e, a)
		assert.Equal(t, envs.RewardFormatError, st.Reward, a)
		assert.True(t, st.Terminated, a)
		assert.Equal(t, true, st.Info[envs.InfoFormatError], a)
		assert.Equal(t, false, st.Info[envs.InfoSuccess], a)
	}
}

func TestTurnLimitTruncates(t *testing.T) {
	e := newEnv(t, Config{Level: "easy", MaxTurns: 2, Words: words.NewList([]string{"cat"})})
	_, info, err := e.Reset(0)
	require.NoError(t, err)
	require.Equal(t, 2, info[envs.InfoMaxTurns])
	step(t, e, `\boxed{c}`)
	st := step(t, e, `\boxed{a}`)
	assert.InDelta(t, 0.5/3, st.Reward, 1e-12, "the last step keeps its reward")
	assert.True(t, st.Truncated)
	assert.False(t, st.Terminated)
	assert.Equal(t, false, st.Info[envs.InfoSuccess])
	assert.Contains(t, st.Obs, "Out of turns: the word was CAT.")
}

func TestLevelsAndDeterminism(t *testing.T) {
	e := newEnv(t, Config{Level: "random"})
	f := newEnv(t, Config{Level: "random"})
	turns := map[int]int{}
	for seed := range uint64(200) {
		oa, ia, _ := e.Reset(seed)
		ob, ib, _ := f.Reset(seed)
		require.Equal(t, oa, ob)
		require.Equal(t, ia, ib)
		require.Equal(t, e.Secret(), f.Secret())
		turns[len(e.Secret())] = ia[envs.InfoMaxTurns].(int)
	}
	assert.Equal(t, map[int]int{3: 10, 5: 15, 7: 20}, turns)
	h := newEnv(t, Config{Level: "hard", Style: envs.StyleBrief})
	obs, info, _ := h.Reset(1)
	assert.Equal(t, 20, info[envs.InfoMaxTurns])
	assert.Equal(t, `Hangman: find the 7-letter word in 20 turns. Reply \boxed{letter} or \boxed{WORD}. Word: _ _ _ _ _ _ _`, obs)
}

func TestSampleActionParses(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	e := newEnv(t, Config{Level: "random"})
	_, ok := words.FromBoxed(e.SampleAction(r))
	require.True(t, ok, "before Reset")
	for seed := range uint64(100) {
		_, _, err := e.Reset(seed)
		require.NoError(t, err)
		for {
			a := e.SampleAction(r)
			g, ok := words.FromBoxed(a)
			require.True(t, ok, a)
			require.True(t, len(g) == 1 || len(g) == len(e.Secret()), a)
			st := step(t, e, a)
			require.NotEqual(t, true, st.Info[envs.InfoInvalid], "a sampled letter is never a repeat: %s", a)
			if st.Done() {
				break
			}
		}
	}
}

func TestNewErrors(t *testing.T) {
	_, err := New(Config{Level: "medium"})
	assert.ErrorContains(t, err, "want easy, hard or random")
	_, err = New(Config{Level: "random", Words: words.NewList([]string{"cat", "crane"})})
	assert.ErrorContains(t, err, "no 7-letter words")
	e := newEnv(t, Config{})
	_, err = e.Step(`\boxed{a}`)
	assert.ErrorIs(t, err, envs.ErrNotReset)
}

// FuzzStep: any response is a format error, an invalid move or a scored
// guess; none panics, and rewards stay within the game's range.
func FuzzStep(f *testing.F) {
	for _, s := range []string{`\boxed{e}`, `\boxed{CAT}`, `\boxed{}`, `\boxed{a b}`, "\\boxed{\xff}", `\boxed{{x}}`} {
		f.Add(uint64(1), s)
	}
	e, err := New(Config{Level: "random"})
	require.NoError(f, err)
	f.Fuzz(func(t *testing.T, seed uint64, action string) {
		_, _, err := e.Reset(seed)
		require.NoError(t, err)
		st, err := e.Step(action)
		require.NoError(t, err)
		_, parsed := words.FromBoxed(action)
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

// With ShowTried each observation after a guess ends with the letters
// guessed so far, in alphabetical order; a word guess adds none.
func TestShowTried(t *testing.T) {
	e := newEnv(t, Config{Level: "hard", ShowTried: true, Words: words.NewList([]string{"balloon", "cabbage"})})
	resetTo(t, e, "balloon")
	for _, tc := range []struct{ action, obs string }{
		{`\boxed{CABBAGE}`, "CABBAGE is not the word. Word: _ _ _ _ _ _ _. 19 turns left. Tried: none."},
		{`\boxed{o}`, "O appears 2 time(s). Word: _ _ _ _ O O _. 18 turns left. Tried: O."},
		{`\boxed{Z}`, "No Z in the word. Word: _ _ _ _ O O _. 17 turns left. Tried: O, Z."},
		{`\boxed{b}`, "B appears 1 time(s). Word: B _ _ _ O O _. 16 turns left. Tried: B, O, Z."},
		{`\boxed{B}`, "Invalid: B was already guessed. Word: B _ _ _ O O _. 15 turns left. Tried: B, O, Z."},
	} {
		assert.Equal(t, tc.obs, step(t, e, tc.action).Obs, tc.action)
	}
}
