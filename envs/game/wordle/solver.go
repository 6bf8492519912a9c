package wordle

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gemgo/gemgo/envs"
)

// maxScored bounds the candidates that Solver rates as its next guess.
const maxScored = 100

// Solver keeps the words of the env's list (the secret words and accepted
// guesses) that agree with the marks of all its guesses so far, and
// guesses the word whose marks would split them into the smallest groups
// (least sum of squared group sizes): one of them while many are left, any
// word of the list once few are (see best). It reads the word list and
// the word length of the env, as the instructions state it, and the marks
// from each observation; it does not read the answer. It wins every game
// within the turn limit (5 turns a letter); a few games in a hundred take
// 7 guesses (TestSolverFindsEveryWord).
type Solver struct {
	list  []string // the words of the secret's length
	cands []string
	last  string // the latest guess, "" before the first
	marks []byte
	count []int // per marks pattern, in scoring
}

// NewSolver returns the solver of e's current episode (make one per
// episode).
func NewSolver(e *Env) *Solver {
	n := len(e.answer)
	size := 1
	for range n {
		size *= 3
	}
	return &Solver{
		list:  e.list.OfLength(n),
		cands: append([]string(nil), e.list.OfLength(n)...),
		marks: make([]byte, n),
		count: make([]int, size),
	}
}

// NewSolver returns the solver of the episode e was last reset to
// (envs.SolverMaker).
func (e *Env) NewSolver() envs.Solver { return NewSolver(e) }

var _ envs.SolverMaker = (*Env)(nil)

// readMarks returns the marks that obs gives guess ("CRANE: G Y X X G.").
func readMarks(obs, guess string, dst []byte) bool {
	head := strings.ToUpper(guess) + ":"
	i := strings.Index(obs, head)
	if i < 0 {
		return false
	}
	f := strings.Fields(strings.TrimRight(obs[i+len(head):], "."))
	if len(f) < len(dst) {
		return false
	}
	for k := range dst {
		m := strings.TrimSuffix(f[k], ".")
		if len(m) != 1 || (m[0] != Green && m[0] != Yellow && m[0] != Gray) {
			return false
		}
		dst[k] = m[0]
	}
	return true
}

// pattern numbers a row of marks, base 3.
func pattern(marks []byte) int {
	p := 0
	for _, m := range marks {
		p *= 3
		switch m {
		case Yellow:
			p++
		case Green:
			p += 2
		}
	}
	return p
}

// Act reads the marks of the previous guess from obs and returns the next
// guess as \boxed{WORD}.
func (s *Solver) Act(obs string) (string, error) {
	if s.last != "" {
		if !readMarks(obs, s.last, s.marks) {
			return "", fmt.Errorf("wordle solver: no marks for %s in %q", strings.ToUpper(s.last), envs.Excerpt(obs))
		}
		want := pattern(s.marks)
		keep := s.cands[:0]
		for _, c := range s.cands {
			Feedback(s.marks, c, s.last)
			if pattern(s.marks) == want {
				keep = append(keep, c)
			}
		}
		s.cands = keep
	}
	if len(s.cands) == 0 {
		return "", errors.New("wordle solver: no word of the list agrees with the marks")
	}
	s.last = s.best()
	return envs.Boxed(strings.ToUpper(s.last)), nil
}

// best returns the guess whose marks split the candidates into the
// smallest groups, rated over the first maxScored candidates and, once at
// most maxScored/2 candidates are left, over every word of the list too
// (a word that cannot be the answer may split them better); a candidate
// wins ties.
func (s *Solver) best() string {
	if len(s.cands) <= 2 {
		return s.cands[0]
	}
	best, bestScore := "", -1
	rate := func(g string, bonus int) {
		clear(s.count)
		score := 0
		for _, c := range s.cands {
			Feedback(s.marks, c, g)
			p := pattern(s.marks)
			score += 2*s.count[p] + 1 // (k+1)² − k²
			s.count[p]++
		}
		score = 2*score - bonus
		if bestScore < 0 || score < bestScore {
			best, bestScore = g, score
		}
	}
	for _, g := range s.cands[:min(len(s.cands), maxScored)] {
		rate(g, 1)
	}
	if len(s.cands) <= maxScored/2 {
		for _, g := range s.list {
			rate(g, 0)
		}
	}
	return best
}
