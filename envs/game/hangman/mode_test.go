package hangman

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// letterDist is the distribution of sampleConsistent's letter in e's
// current state, computed rather than drawn: each consistent word weighs
// 1/N and splits its weight evenly over its distinct letters not yet tried.
func letterDist(e *Env) [26]float64 {
	var p [26]float64
	e.cands = e.consistent(e.cands[:0])
	for _, w := range e.cands {
		var seen [26]bool
		k := 0
		for i := 0; i < len(w); i++ {
			if c := w[i] - 'a'; !e.tried[c] && !seen[c] {
				seen[c] = true
				k++
			}
		}
		for c, ok := range seen {
			if ok {
				p[c] += 1 / float64(k*len(e.cands))
			}
		}
	}
	return p
}

// A policy that imitates sample: consistent exactly and decodes greedily
// plays the sampler's most likely letter. That play wins 153 of the 200
// held-out easy games (the eval seeds 2^40, 2^40+1, ...; ties go to the
// first letter), 0.765 against 0.460 for the sampler's own draws and 0.715
// for Solver: a greedy policy's imitation of the sampler is bounded by
// how well it learns the distribution, not by the sampler's win rate.
// The computed distribution is checked against 40,000 of the sampler's
// draws at the opening and after a guess.
func TestConsistentModeWins(t *testing.T) {
	e, err := New(Config{Level: "easy", SampleConsistent: true})
	require.NoError(t, err)
	r := rand.New(rand.NewPCG(3, 4))
	for _, guesses := range [][]string{nil, {`\boxed{A}`}} {
		_, _, err := e.Reset(1<<40 + 2) // the secret holds an A
		require.NoError(t, err)
		for _, g := range guesses {
			_, err := e.Step(g)
			require.NoError(t, err)
		}
		p := letterDist(e)
		var n [26]int
		const draws = 40000
		for range draws {
			a := e.SampleAction(r)
			require.Len(t, a, len(`\boxed{A}`), a)
			n[a[len(`\boxed{`)]-'A']++
		}
		sum := 0.0
		for c := range p {
			sum += p[c]
			// a binomial's standard deviation is at most 0.0025 here
			assert.InDelta(t, p[c], float64(n[c])/draws, 0.01, "letter %c after %v", 'A'+c, guesses)
		}
		assert.InDelta(t, 1, sum, 1e-9)
	}

	won := heldOutWins(t, e, func() string {
		p := letterDist(e)
		best := 0
		for c := range p {
			if p[c] > p[best] {
				best = c
			}
		}
		require.False(t, math.IsNaN(p[best]) || p[best] == 0)
		return `\boxed{` + string(rune('A'+best)) + `}`
	})
	assert.Equal(t, 153, won)
}

// heldOutWins plays e, an easy-level env, on the 200 held-out seeds the
// trainer evaluates on (2^40, 2^40+1, ...) with the actions move returns,
// and counts the games won.
func heldOutWins(t *testing.T, e *Env, move func() string) int {
	t.Helper()
	won := 0
	for i := range uint64(200) {
		_, _, err := e.Reset(1<<40 + i)
		require.NoError(t, err)
		for turn := 0; ; turn++ {
			require.Less(t, turn, 10, "the easy level ends by turn 10")
			st, err := e.Step(move())
			require.NoError(t, err)
			if st.Terminated {
				won++
			}
			if st.Terminated || st.Truncated {
				break
			}
		}
	}
	return won
}
