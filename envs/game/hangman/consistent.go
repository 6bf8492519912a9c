package hangman

import (
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/gemgo/gemgo/envs"
)

// sampleConsistent is the random play of option sample: consistent. It
// draws a word uniformly among the consistent words (see consistent) and
// guesses one of that word's letters not yet tried, uniformly among its
// distinct ones. Every such letter sits in a hidden spot of the drawn word,
// so the guess is never a repeat and may always be right. It guesses
// letters only, never the word: guessing the word once it is the only one
// left wins as often (0.460 against 0.455 of 200 easy games), and a policy
// that imitates this play then answers one letter a turn. The secret is
// always consistent, so the draw never comes up empty.
func (e *Env) sampleConsistent(r *rand.Rand) string {
	e.cands = e.consistent(e.cands[:0])
	if len(e.cands) == 0 { // unreachable: the secret is consistent
		return envs.Boxed(strings.ToUpper(e.secret))
	}
	w := e.cands[r.IntN(len(e.cands))]
	var left [26]byte
	var seen [26]bool
	k := 0
	for i := 0; i < len(w); i++ {
		if c := w[i] - 'a'; !e.tried[c] && !seen[c] {
			seen[c] = true
			left[k] = 'A' + c
			k++
		}
	}
	return envs.Boxed(string(left[r.IntN(k)]))
}

// consistent appends to dst the words of the list, of the secret's length,
// that fit what the player has seen: each revealed spot holds its letter,
// no hidden spot holds a letter already guessed (a guessed letter shows in
// every spot where it appears), and the word was not refused before. The
// order is the list's.
func (e *Env) consistent(dst []string) []string {
	n := len(e.secret)
next:
	for _, w := range e.list.OfLength(n) {
		for i := 0; i < n; i++ {
			if e.revealed[i] {
				if w[i] != e.secret[i] {
					continue next
				}
			} else if e.tried[w[i]-'a'] {
				continue next
			}
		}
		if !slices.Contains(e.wrong, w) {
			dst = append(dst, w)
		}
	}
	return dst
}
