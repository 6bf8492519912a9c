package hangman_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/game/gamekit/gamekittest"
	"github.com/gemgo/gemgo/envs/game/hangman"
	"github.com/gemgo/gemgo/envs/game/words"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const easyID = "game:Hangman-v0-easy"

// fits reports whether w could still be secret after the guesses: every
// guessed letter sits in w exactly where it sits in secret, and no guessed
// word is w (a wrong word guessed is refused; the right one ends the game).
func fits(w, secret string, letters []byte, guessedWords []string) bool {
	if len(w) != len(secret) {
		return false
	}
	for _, c := range letters {
		for i := range len(w) {
			if (w[i] == c) != (secret[i] == c) {
				return false
			}
		}
	}
	for _, g := range guessedWords {
		if g == w {
			return false
		}
	}
	return true
}

// With sample: consistent every sampled action is one letter not guessed
// before that some word still fitting the game holds, checked against the
// guesses made (the test's own account, not the env's). A third of the
// moves are a word drawn from the list instead, so that refused words are
// checked too. 300 easy games, 60 of each other level.
func TestSampleConsistentKeepsToTheFittingWords(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	list := words.Common()
	for _, id := range []string{easyID, "game:Hangman-v0-hard", "game:Hangman-v0-random"} {
		env, err := registry(t).Make(id, envs.With("sample", "consistent"))
		require.NoError(t, err)
		s := env.(envs.ActionSampler)
		games := uint64(300)
		if id != easyID {
			games = 60
		}
		for seed := range games {
			_, _, err := env.Reset(seed)
			require.NoError(t, err)
			secret := env.(*hangman.Env).Secret()
			pool := list.OfLength(len(secret))
			var letters []byte
			var guessedWords []string
			for {
				a := s.SampleAction(r)
				g, ok := words.FromBoxed(a)
				require.True(t, ok, a)
				require.Len(t, g, 1, "%s seed %d: the consistent draw guesses letters only: %s", id, seed, a)
				require.NotContains(t, string(letters), g, "%s seed %d: %s was guessed before", id, seed, a)
				held := false
				for _, w := range pool {
					if strings.Contains(w, g) && fits(w, secret, letters, guessedWords) {
						held = true
						break
					}
				}
				require.True(t, held, "%s seed %d: no word fitting %q and %v holds %s", id, seed, letters, guessedWords, a)
				if r.IntN(3) == 0 {
					w := pool[r.IntN(len(pool))]
					a = envs.Boxed(w)
					if w != secret {
						guessedWords = append(guessedWords, w)
					}
				} else {
					letters = append(letters, g[0])
				}
				st := gamekittest.Step(t, env, a)
				if st.Done() {
					break
				}
			}
		}
	}
	_, err := registry(t).Make(easyID, envs.With("sample", "informed"))
	require.ErrorContains(t, err, `option sample = "informed": allowed values are any, consistent`)
}

// wins plays games easy games of the env's own random play (option sample)
// from seeds 0, 1, ... and counts the games won.
func wins(t *testing.T, sample string, games int) int {
	t.Helper()
	env, err := registry(t).Make(easyID, envs.With("sample", sample))
	require.NoError(t, err)
	s := env.(envs.ActionSampler)
	r := rand.New(rand.NewPCG(7, 8))
	won := 0
	for seed := range uint64(games) {
		_, _, err := env.Reset(seed)
		require.NoError(t, err)
		for {
			st := gamekittest.Step(t, env, s.SampleAction(r))
			if st.Done() {
				if st.Info[envs.InfoSuccess] == true {
					won++
				}
				break
			}
		}
	}
	return won
}

// Random play among the fitting words wins the easy level about half the
// time (0.46 of 200 held-out seeds with cmd/eval), GEM's draw of any letter
// not yet tried about one game in thirty (0.025); the bounds leave room
// for the draw of 400 games.
func TestSampleConsistentWinRate(t *testing.T) {
	consistent, gem := wins(t, "consistent", 400), wins(t, "any", 400)
	t.Logf("400 easy games won: consistent %d, any %d", consistent, gem)
	assert.Greater(t, consistent, 150, "consistent")
	assert.Less(t, gem, 40, "any")
}

// The default draw (no sample option, or sample: any) is GEM's, the same
// actions for a fixed seed as before the option existed.
func TestSampleAnyUnchanged(t *testing.T) {
	for _, opts := range [][]envs.Option{nil, {envs.With("sample", "any")}} {
		env, err := registry(t).Make(easyID, opts...)
		require.NoError(t, err)
		_, _, err = env.Reset(11)
		require.NoError(t, err)
		r := rand.New(rand.NewPCG(1, 2))
		var got []string
		for range 10 {
			a := env.(envs.ActionSampler).SampleAction(r)
			got = append(got, a)
			if gamekittest.Step(t, env, a).Done() {
				break
			}
		}
		assert.Equal(t, []string{`\boxed{Q}`, `\boxed{U}`, `\boxed{A}`, `\boxed{L}`, `\boxed{F}`,
			`\boxed{M}`, `\boxed{D}`, `\boxed{V}`, `\boxed{O}`, `\boxed{GIN}`}, got)
	}
}
