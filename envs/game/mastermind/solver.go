package mastermind

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"

	"github.com/gemgo/gemgo/envs"
)

// Solver plays the consistent-guess strategy: it keeps every code that
// agrees with the pegs of all its guesses so far and guesses the first of
// them (in increasing order), so each guess is a code that can still be
// the answer. It reads the level (code length and digits) of the env, as
// the instructions state it, and the pegs from each observation; it does
// not read the code.
type Solver struct {
	digits int
	cands  [][]int
	last   []int // the latest guess, nil before the first
}

// NewSolver returns the solver of e's current episode (make one per
// episode).
func NewSolver(e *Env) *Solver {
	s := &Solver{digits: e.lv.Digits}
	code := make([]int, e.lv.Length)
	var used [10]bool
	var fill func(i int)
	fill = func(i int) {
		if i == len(code) {
			s.cands = append(s.cands, append([]int(nil), code...))
			return
		}
		for d := 1; d <= e.lv.Digits; d++ {
			if !used[d] {
				used[d] = true
				code[i] = d
				fill(i + 1)
				used[d] = false
			}
		}
	}
	fill(0)
	return s
}

// NewSolver returns the solver of the episode e was last reset to
// (envs.SolverMaker).
func (e *Env) NewSolver() envs.Solver { return NewSolver(e) }

var _ envs.SolverMaker = (*Env)(nil)

// The pegs of a legal guess as the GEM and brief styles write them.
var (
	pegsGEM   = regexp.MustCompile(`(\d+) black pegs? and (\d+) white pegs?`)
	pegsBrief = regexp.MustCompile(`black (\d+), white (\d+)`)
)

// readPegs returns the black and white pegs that obs reports.
func readPegs(obs string) (black, white int, ok bool) {
	m := pegsGEM.FindStringSubmatch(obs)
	if m == nil {
		m = pegsBrief.FindStringSubmatch(obs)
	}
	if m == nil {
		return 0, 0, false
	}
	black, _ = strconv.Atoi(m[1])
	white, _ = strconv.Atoi(m[2])
	return black, white, true
}

// Act reads the pegs of the previous guess from obs and returns the next
// guess as \boxed{d d ...}.
func (s *Solver) Act(obs string) (string, error) {
	if s.last != nil {
		black, white, ok := readPegs(obs)
		if !ok {
			return "", fmt.Errorf("mastermind solver: no pegs in %q", obs)
		}
		keep := s.cands[:0]
		for _, c := range s.cands {
			if b, w := score(c, s.last, s.digits); b == black && w == white {
				keep = append(keep, c)
			}
		}
		s.cands = keep
	}
	if len(s.cands) == 0 {
		return "", errors.New("mastermind solver: no code agrees with the pegs")
	}
	s.last = s.cands[0]
	return `\boxed{` + joinDigits(s.last, len(s.last)) + `}`, nil
}
