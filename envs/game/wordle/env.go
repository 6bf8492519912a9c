package wordle

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/game/gamekit"
	"github.com/gemgo/gemgo/envs/game/words"
)

// TurnsPerLetter sets the default turn limit: 5 turns per letter (GEM's 15
// turns for 3 letters, 25 for 5).
const TurnsPerLetter = 5

// Config sets up a Wordle env. Zero values mean the defaults.
type Config struct {
	// Level is "easy" (3 letters), "hard" (5) or "random" (3 to 5, drawn on
	// each Reset).
	Level string
	// Style of the instructions: envs.StyleGEM (default) or envs.StyleBrief.
	Style envs.Style
	// MaxTurns overrides the turn limit (default TurnsPerLetter × length).
	MaxTurns int
	// Words is the list of secret words and accepted guesses (default
	// words.Common()).
	Words *words.List
	// SampleConsistent makes SampleAction draw among the listed words of
	// the secret's length consistent with every mark so far (option
	// sample: consistent) instead of any listed word of that length.
	SampleConsistent bool
	// SampleFirst makes SampleAction return, of the words SampleConsistent
	// draws among, the first in the word list's (alphabetical) order: a
	// deterministic teacher, a function of the guesses and marks shown
	// (option sample: first). It overrides SampleConsistent.
	SampleFirst bool
	// InvalidReward is the reward of an invalid move (a guess repeated,
	// unlisted or of the wrong length), in [-1, 0]; GEM's is 0, the reward
	// of any guess that finds no new green, so a learner sees no cost in
	// a repeat but the lost turn (option invalid_reward).
	InvalidReward float64
}

// lengths returns the word lengths a level can draw.
func lengths(level string) (lo, hi int, err error) {
	switch level {
	case "easy", "":
		return 3, 3, nil
	case "hard":
		return 5, 5, nil
	case "random":
		return 3, 5, nil
	}
	return 0, 0, fmt.Errorf("wordle: level %q: want easy, hard or random", level)
}

// Env is one Wordle game. It is not safe for concurrent use.
type Env struct {
	cfg      Config
	lo, hi   int
	list     *words.List
	src      rand.PCG
	rng      *rand.Rand
	ep       gamekit.Episode
	maxTurns int
	answer   string
	green    []bool // positions found green so far
	guesses  []string
	marks    []byte
	// cands holds the words consistent with every mark so far, in the word
	// list's order; only with Config.SampleConsistent or SampleFirst (see
	// consistent.go).
	cands []string
	sb    strings.Builder
}

var (
	_ envs.Env           = (*Env)(nil)
	_ envs.ActionSampler = (*Env)(nil)
	_ envs.Describer     = (*Env)(nil)
)

// New returns a Wordle env. The word list must hold words of every length
// the level draws.
func New(cfg Config) (*Env, error) {
	lo, hi, err := lengths(cfg.Level)
	if err != nil {
		return nil, err
	}
	if err := gamekit.Defaults("wordle", &cfg.Level, &cfg.Style, cfg.MaxTurns); err != nil {
		return nil, err
	}
	list := cfg.Words
	if list == nil {
		list = words.Common()
	}
	for n := lo; n <= hi; n++ {
		if len(list.OfLength(n)) == 0 {
			return nil, fmt.Errorf("wordle %s: the word list has no %d-letter words", cfg.Level, n)
		}
	}
	e := &Env{cfg: cfg, lo: lo, hi: hi, list: list}
	e.rng = rand.New(&e.src)
	return e, nil
}

// Description implements envs.Describer.
func (e *Env) Description() string {
	return fmt.Sprintf("Wordle (%s): find a secret %s-letter word from G/Y/X feedback", e.cfg.Level, e.lengthText())
}

func (e *Env) lengthText() string {
	if e.lo == e.hi {
		return fmt.Sprint(e.lo)
	}
	return fmt.Sprintf("%d-%d", e.lo, e.hi)
}

// Answer returns the secret word of the current episode (for tests and
// debugging).
func (e *Env) Answer() string { return e.answer }

// Reset starts an episode: the secret word is drawn by the seed alone.
func (e *Env) Reset(seed uint64) (string, envs.Info, error) {
	e.src.Seed(seed, 0x776f72646c65) // "wordle"
	n := e.lo + e.rng.IntN(e.hi-e.lo+1)
	pool := e.list.OfLength(n)
	e.answer = pool[e.rng.IntN(len(pool))]
	e.maxTurns = e.cfg.MaxTurns
	if e.maxTurns == 0 {
		e.maxTurns = TurnsPerLetter * n
	}
	e.ep.Start()
	e.green = slices.Grow(e.green[:0], n)[:n]
	clear(e.green)
	e.marks = slices.Grow(e.marks[:0], n)[:n]
	e.guesses = e.guesses[:0]
	e.resetCandidates()
	return e.instructions(n), envs.Info{envs.InfoMaxTurns: e.maxTurns}, nil
}

func (e *Env) instructions(n int) string {
	if e.cfg.Style == envs.StyleBrief {
		return fmt.Sprintf("Wordle: guess the %d-letter word in %d turns. Reply \\boxed{WORD}. G=right spot, Y=wrong spot, X=absent.", n, e.maxTurns)
	}
	return fmt.Sprintf("You are playing Wordle. Find the secret %d-letter English word in at most %d guesses.\n"+
		"After each guess you get one mark per letter: G means the letter is in that spot, "+
		"Y means the word has the letter in another spot, X means the word does not have the letter "+
		"(or not as many times as you used it).\n"+
		"Each guess must be a real %d-letter word. Put your guess in \\boxed{}, for example \\boxed{%s}.",
		n, e.maxTurns, n, strings.ToUpper(example(n)))
}

// example is a word of n letters to show the action format.
func example(n int) string {
	switch n {
	case 3:
		return "cat"
	case 4:
		return "lamp"
	case 5:
		return "crane"
	}
	return strings.Repeat("a", n)
}

// SampleAction returns a boxed word of the right length from the word list
// (before the first Reset: of a length the level can draw); with
// Config.SampleConsistent, a word consistent with every mark so far, and
// with Config.SampleFirst the first such word (r unused).
func (e *Env) SampleAction(r *rand.Rand) string {
	if len(e.cands) > 0 {
		if e.cfg.SampleFirst {
			return envs.Boxed(strings.ToUpper(e.cands[0]))
		}
		return envs.Boxed(strings.ToUpper(e.cands[r.IntN(len(e.cands))]))
	}
	n := len(e.answer)
	if n == 0 {
		n = e.lo + r.IntN(e.hi-e.lo+1)
	}
	pool := e.list.OfLength(n)
	return envs.Boxed(strings.ToUpper(pool[r.IntN(len(pool))]))
}

// Step plays one guess.
func (e *Env) Step(action string) (envs.Step, error) {
	info, err := e.ep.Begin()
	if err != nil {
		return envs.Step{}, err
	}
	n := len(e.answer)
	guess, ok := ParseGuess(action)
	if !ok {
		e.ep.Active = false
		return gamekit.FormatError(info, fmt.Sprintf("Format error: no guess found. Reply with a %d-letter word in \\boxed{}.", n)), nil
	}
	var st envs.Step
	if why := e.invalid(guess); why != "" {
		info[envs.InfoInvalid] = true
		st.Obs = why
		st.Reward = e.cfg.InvalidReward
	} else {
		st = e.score(guess)
	}
	st.Info = info
	if st.Terminated {
		info[envs.InfoSuccess] = true
		e.ep.Active = false
		return st, nil
	}
	if e.ep.Turn >= e.maxTurns {
		st.Truncated = true
		info[envs.InfoSuccess] = false
		e.ep.Active = false
		st.Obs += fmt.Sprintf(" Out of turns: the word was %s.", strings.ToUpper(e.answer))
		return st, nil
	}
	st.Obs += fmt.Sprintf(" %d turns left.", e.maxTurns-e.ep.Turn)
	return st, nil
}

// invalid returns why guess is not a legal move, or "" when it is.
func (e *Env) invalid(guess string) string {
	n := len(e.answer)
	switch {
	case len(guess) != n:
		return fmt.Sprintf("Invalid: %s has %d letters, the word has %d.", shown(guess), len(guess), n)
	case !e.list.Contains(guess):
		return fmt.Sprintf("Invalid: %s is not in the word list.", shown(guess))
	case slices.Contains(e.guesses, guess):
		return fmt.Sprintf("Invalid: %s was already guessed.", shown(guess))
	}
	return ""
}

// shown is a guess as printed in a message: uppercase, cut when long.
func shown(guess string) string {
	if len(guess) > 12 {
		return "that guess"
	}
	return strings.ToUpper(guess)
}

// score plays a legal guess.
func (e *Env) score(guess string) envs.Step {
	n := len(e.answer)
	e.guesses = append(e.guesses, guess)
	Feedback(e.marks, e.answer, guess)
	e.keepConsistent(guess)
	newGreen := 0
	for i, m := range e.marks {
		if m == Green && !e.green[i] {
			e.green[i] = true
			newGreen++
		}
	}
	reward := 0.5 * float64(newGreen) / float64(n)
	solved := guess == e.answer
	if solved {
		reward += 0.5
	}
	e.sb.Reset()
	for i := 0; i < n; i++ {
		e.sb.WriteByte(guess[i] - 'a' + 'A')
	}
	e.sb.WriteByte(':')
	for _, m := range e.marks {
		e.sb.WriteByte(' ')
		e.sb.WriteByte(m)
	}
	e.sb.WriteByte('.')
	if solved {
		fmt.Fprintf(&e.sb, " Solved in %d turns.", e.ep.Turn)
	}
	return envs.Step{Obs: e.sb.String(), Reward: reward, Terminated: solved}
}
