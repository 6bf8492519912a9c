package wordle

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/game/words"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSampleFirstHandBuilt follows sample: first on a list of six words
// and the secret HOT: BAT before any guess (the list's first word); after
// BAT (X X G) the words ending in T with no A or B are COT and HOT, so
// COT; after COT (X G G), HOT, which solves.
func TestSampleFirstHandBuilt(t *testing.T) {
	e, err := New(Config{Level: "easy", SampleFirst: true, Words: words.NewList([]string{"tab", "hot", "hat", "cot", "cat", "bat"})})
	require.NoError(t, err)
	resetTo(t, e, "hot")
	r := rand.New(rand.NewPCG(1, 1))
	for _, want := range []struct{ guess, obs string }{
		{`\boxed{BAT}`, "BAT: X X G. 14 turns left."},
		{`\boxed{COT}`, "COT: X G G. 13 turns left."},
		{`\boxed{HOT}`, ""},
	} {
		a := e.SampleAction(r)
		require.Equal(t, want.guess, a)
		st := step(t, e, a)
		if want.obs != "" {
			assert.Equal(t, want.obs, st.Obs)
		} else {
			assert.True(t, st.Terminated, "HOT solves: %q", st.Obs)
		}
	}
}

// firstConsistent is an independent reading of sample: first: the
// list's first word of n letters that, as the secret, gives every past
// guess the marks shown for it (read from the observations).
func firstConsistent(list *words.List, n int, past, marks []string) string {
	got := make([]byte, n)
	for _, w := range list.OfLength(n) {
		ok := true
		for i, p := range past {
			Feedback(got, w, p)
			if string(got) != marks[i] {
				ok = false
				break
			}
		}
		if ok {
			return w
		}
	}
	return ""
}

// TestSampleFirstMatchesAnIndependentReading plays sample: first on 300
// seeds of each level: every guess is the word firstConsistent finds from
// the observations alone, the same whatever the random stream (two
// streams asked at each turn), never a repeat; the consistent sampler's
// checks (playConsistent: every guess agrees with every earlier mark, a
// legal move) hold, and every game is won. Measured: the easy level's 300
// games take 5.63 turns on average, at most 12 of the 15 (hard 3.47, at
// most 6).
func TestSampleFirstMatchesAnIndependentReading(t *testing.T) {
	for _, level := range []string{"easy", "hard", "random"} {
		e, err := New(Config{Level: level, SampleFirst: true})
		require.NoError(t, err)
		r1, r2 := rand.New(rand.NewPCG(1, 2)), rand.New(rand.NewPCG(3, 4))
		wins, most, total := 0, 0, 0
		for seed := range uint64(300) {
			_, _, err := e.Reset(seed)
			require.NoError(t, err)
			n := len(e.Answer())
			var past, marks []string
			seen := map[string]bool{}
			for turn := 1; ; turn++ {
				a := e.SampleAction(r1)
				require.Equal(t, a, e.SampleAction(r2), "seed %d: the teacher draws nothing", seed)
				g, ok := ParseGuess(a)
				require.True(t, ok)
				require.Equal(t, firstConsistent(e.list, n, past, marks), g, "seed %d turn %d", seed, turn)
				require.False(t, seen[g], "seed %d: %s repeated", seed, g)
				seen[g] = true
				st, err := e.Step(envs.Boxed(strings.ToUpper(g)))
				require.NoError(t, err)
				m := marksOf(st.Obs, n)
				require.NotEmpty(t, m, "seed %d: a consistent guess is a legal move: %q", seed, st.Obs)
				past, marks = append(past, g), append(marks, m)
				if st.Terminated || st.Truncated {
					if st.Terminated {
						wins++
						total += turn
						most = max(most, turn)
					}
					break
				}
			}
		}
		t.Logf("%s: %d of 300 won, mean %.2f turns, at most %d", level, wins, float64(total)/float64(max(wins, 1)), most)
		assert.Equal(t, 300, wins, "%s: the first consistent word wins every game", level)
	}
}

// TestSampleConsistentDrawsPinned: sample: consistent draws what it drew
// before sample: first existed (recorded from that code): one game, seed 5.
func TestSampleConsistentDrawsPinned(t *testing.T) {
	e, err := New(Config{Level: "easy", SampleConsistent: true})
	require.NoError(t, err)
	r := rand.New(rand.NewPCG(7, 7))
	_, _, err = e.Reset(5)
	require.NoError(t, err)
	var got []string
	for {
		a := e.SampleAction(r)
		got = append(got, a)
		st, err := e.Step(a)
		require.NoError(t, err)
		if st.Terminated || st.Truncated {
			break
		}
	}
	assert.Equal(t, []string{`\boxed{WOE}`, `\boxed{BOA}`, `\boxed{SON}`, `\boxed{FOR}`, `\boxed{FOX}`}, got)
}
