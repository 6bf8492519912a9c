package hangman

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gemgo/gemgo/envs"
)

// Solver keeps the words of the env's list that fit the pattern shown so
// far (revealed letters in place, no guessed letter in a hidden spot, no
// word already refused) and guesses the move that splits them into the
// smallest groups (least sum of squared group sizes): a letter, grouped by
// the spots it would reveal, or a word, which wins or leaves the rest.
// With one word left it guesses that word. It reads the env's word list
// and, from each observation, the pattern ("Word: C _ T"); it does not
// read the secret. It is not exact: words that differ in one spot only
// (BIT, FIT, HIT, ...) cost about a turn each, so about one easy game in
// five (3 letters, 10 turns) runs out of turns; it wins every hard game
// (TestSolverWinRate).
type Solver struct {
	list    []string // the env's words, every length
	cands   []string // nil until the first pattern is read
	tried   [26]bool
	refused map[string]bool
	last    string // the latest guess: a letter or a word
}

// NewSolver returns the solver of e's current episode (make one per
// episode).
func NewSolver(e *Env) *Solver {
	return &Solver{list: e.list.Words(), refused: map[string]bool{}}
}

// NewSolver returns the solver of the episode e was last reset to
// (envs.SolverMaker).
func (e *Env) NewSolver() envs.Solver { return NewSolver(e) }

var _ envs.SolverMaker = (*Env)(nil)

// readPattern returns the last pattern in obs, lowercase with '_' for a
// hidden letter: "Word: C _ T." gives "c_t".
func readPattern(obs string) (string, bool) {
	i := strings.LastIndex(obs, "Word: ")
	if i < 0 {
		return "", false
	}
	var b []byte
	rest := obs[i+len("Word: "):]
	for k := 0; k < len(rest); k += 2 {
		c := rest[k]
		switch {
		case c == '_':
			b = append(b, '_')
		case c >= 'A' && c <= 'Z':
			b = append(b, c-'A'+'a')
		default:
			return "", false
		}
		if k+1 == len(rest) || rest[k+1] != ' ' {
			break
		}
	}
	return string(b), len(b) > 0
}

// fits reports whether w can be the secret behind pattern p.
func (s *Solver) fits(w, p string) bool {
	if len(w) != len(p) || s.refused[w] {
		return false
	}
	for i := 0; i < len(w); i++ {
		if p[i] == '_' {
			if s.tried[w[i]-'a'] {
				return false
			}
		} else if p[i] != w[i] {
			return false
		}
	}
	return true
}

// Act reads the pattern from obs and returns the next guess as \boxed{E}
// or \boxed{WORD}.
func (s *Solver) Act(obs string) (string, error) {
	p, ok := readPattern(obs)
	if !ok {
		return "", fmt.Errorf("hangman solver: no pattern in %q", envs.Excerpt(obs))
	}
	if len(s.last) > 1 {
		s.refused[s.last] = true // a wrong word; a right one ends the game
	}
	pool := s.cands
	if pool == nil {
		pool = s.list
	}
	var keep []string
	for _, w := range pool {
		if s.fits(w, p) {
			keep = append(keep, w)
		}
	}
	s.cands = keep
	if len(keep) == 0 {
		return "", errors.New("hangman solver: no word of the list fits the pattern")
	}
	s.last = s.best(p)
	if len(s.last) == 1 {
		s.tried[s.last[0]-'a'] = true
	}
	return envs.Boxed(strings.ToUpper(s.last)), nil
}

// best returns the guess that leaves the smallest groups: a word guess
// leaves one word and the rest, a letter groups the words by where it
// appears. A word wins ties, since it may end the game at once.
func (s *Solver) best(p string) string {
	c := len(s.cands)
	best, bestScore := s.cands[0], 1+(c-1)*(c-1)
	if c == 1 {
		return best
	}
	groups := map[uint64]int{}
	for l := range byte(26) {
		if s.tried[l] {
			continue
		}
		clear(groups)
		for _, w := range s.cands {
			var at uint64
			for i := 0; i < len(w) && i < 64; i++ {
				if w[i] == 'a'+l && p[i] == '_' {
					at |= 1 << i
				}
			}
			groups[at]++
		}
		if len(groups) == 1 {
			continue // it does not tell the words apart
		}
		score := 0
		for _, k := range groups {
			score += k * k
		}
		if score < bestScore {
			best, bestScore = string('a'+l), score
		}
	}
	return best
}
