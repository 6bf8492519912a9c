package hangman

import (
	"math/rand/v2"
	"testing"

	"github.com/gemgo/gemgo/envs/game/words"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// On a list of five words the weights are small enough to count by hand.
// At the opening C and T each sit in three of the five words (CAT, COT,
// CUT), each word splitting its weight over three letters: a tie, which
// goes to C. After C hits, CAT, COT and CUT are left, each with two letters
// untried: T holds all three halves, A, O and U one each. After C misses,
// DOG and DIG are left: D and G tie with two thirds each, and D comes
// first.
func TestSampleModeHandBuilt(t *testing.T) {
	e, err := New(Config{Level: "easy", SampleMode: true,
		Words: words.NewList([]string{"cat", "cot", "cut", "dog", "dig"})})
	require.NoError(t, err)
	seen := map[bool]bool{}
	for seed := range uint64(40) {
		_, _, err := e.Reset(seed)
		require.NoError(t, err)
		require.Equal(t, `\boxed{C}`, e.SampleAction(nil), "r is never read")
		_, err = e.Step(`\boxed{C}`)
		require.NoError(t, err)
		hit := e.Secret()[0] == 'c'
		seen[hit] = true
		if hit {
			assert.Equal(t, `\boxed{T}`, e.SampleAction(nil), e.Secret())
		} else {
			assert.Equal(t, `\boxed{D}`, e.SampleAction(nil), e.Secret())
		}
	}
	assert.Len(t, seen, 2, "both branches played")
}

// TestSampleModeIsTheMode checks sample: mode in every state of 300 easy
// games and 60 of each other level against letterDist, the distribution
// computed in mode_test.go: the letter played has the greatest probability,
// no letter before it in the alphabet has as much, and it was not tried
// (the test keeps its own account of the guesses). The games go on by the
// mode's letter, a random untried letter or a random word of the list, so
// that misses and refused words shape the states too.
func TestSampleModeIsTheMode(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, level := range []string{"easy", "hard", "random"} {
		e, err := New(Config{Level: level, SampleMode: true})
		require.NoError(t, err)
		games := uint64(300)
		if level != "easy" {
			games = 60
		}
		for seed := range games {
			_, _, err := e.Reset(1<<40 + seed)
			require.NoError(t, err)
			var tried [26]bool
			for turn := 0; ; turn++ {
				require.Less(t, turn, 20, "every level ends by turn 20")
				a := e.SampleAction(nil)
				require.Len(t, a, len(`\boxed{A}`), a)
				c := int(a[len(`\boxed{`)] - 'A')
				require.False(t, tried[c], "%s tried before (seed %d)", a, seed)
				p := letterDist(e)
				const eps = 1e-12
				for b := range p {
					assert.LessOrEqual(t, p[b], p[c]+eps, "%c more likely than %s (seed %d)", 'A'+b, a, seed)
					if b < c {
						assert.Less(t, p[b], p[c]-eps, "%c ties %s and comes first (seed %d)", 'A'+b, a, seed)
					}
				}
				move := a
				switch r.IntN(4) {
				case 0:
					pool := e.list.OfLength(len(e.Secret()))
					move = `\boxed{` + pool[r.IntN(len(pool))] + `}`
				case 1:
					move = e.sampleConsistent(r)
				}
				if len(move) == len(a) {
					tried[move[len(`\boxed{`)]-'A'] = true
				}
				st, err := e.Step(move)
				require.NoError(t, err)
				if st.Terminated || st.Truncated {
					break
				}
			}
		}
	}
}

// TestSampleModeWins plays sample: mode on the 200 held-out easy games
// (the trainer's eval seeds 2^40, 2^40+1, ...): it wins 153 of them, the
// figure of TestConsistentModeWins, against 0.460 for sample: consistent.
func TestSampleModeWins(t *testing.T) {
	e, err := New(Config{Level: "easy", SampleMode: true})
	require.NoError(t, err)
	assert.Equal(t, 153, heldOutWins(t, e, func() string { return e.SampleAction(nil) }))
}
