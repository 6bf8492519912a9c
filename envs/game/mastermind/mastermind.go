package mastermind

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/game/gamekit"
)

// Level is one difficulty: the code length, the digits 1..Digits it draws
// from, and the turn limit.
type Level struct {
	Length, Digits, MaxTurns int
}

// randomLevels are the levels -random draws from.
var randomLevels = [...]Level{{2, 4, 10}, {4, 6, 20}, {4, 8, 30}}

// Config sets up a game. The zero Style means envs.StyleGEM.
type Config struct {
	// Level is the fixed difficulty; ignored when Random is set, except that
	// a non-zero MaxTurns overrides the drawn turn limit.
	Level
	// Random draws a level from (2, 4, 10), (4, 6, 20), (4, 8, 30) on every Reset.
	Random bool
	// Style is the instruction style of the observations.
	Style envs.Style
	// SampleConsistent makes SampleAction draw among the codes consistent
	// with every peg count so far (option sample: consistent) instead of
	// any guess in range (GEM's draw). Levels with more than MaxConsistent
	// codes keep GEM's draw.
	SampleConsistent bool
}

// MaxConsistent bounds the code space SampleAction enumerates with
// Config.SampleConsistent: 15,120 codes, the codes of 5 distinct digits
// from 1–9. Larger levels fall back to the draw over all guesses.
const MaxConsistent = 15120

// Validate reports the first invalid field, naming it and its allowed range.
func (c Config) Validate() error {
	if err := gamekit.CheckStyle("mastermind", c.Style); err != nil {
		return err
	}
	if err := gamekit.CheckMaxTurns("mastermind", c.MaxTurns, c.Random); err != nil {
		return err
	}
	if c.Random {
		return nil
	}
	if c.Digits < 1 || c.Digits > 9 {
		return fmt.Errorf("mastermind: digits = %d is out of range: allowed [1, 9]", c.Digits)
	}
	if c.Length < 1 || c.Length > c.Digits {
		return fmt.Errorf("mastermind: length = %d is out of range: allowed [1, digits = %d] (the code has distinct digits)", c.Length, c.Digits)
	}
	return nil
}

// Env is one Mastermind game. It is not safe for concurrent use.
type Env struct {
	cfg Config
	src rand.PCG
	rng *rand.Rand

	// The current episode.
	lv    Level
	code  []int
	guess []int // parse buffer
	best  int   // most black pegs so far
	ep    gamekit.Episode
	// cands holds the codes consistent with the pegs so far, Length digits
	// each, back to back; only with Config.SampleConsistent (see consistent.go).
	cands []byte
}

var (
	_ envs.Env           = (*Env)(nil)
	_ envs.ActionSampler = (*Env)(nil)
	_ envs.Describer     = (*Env)(nil)
)

// rngStream is the second PCG word, apart from other envs' streams.
const rngStream = 0x6d6173746572 // "master"

// New returns a game for cfg.
func New(cfg Config) (*Env, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg.Style = gamekit.StyleOrGEM(cfg.Style)
	e := &Env{cfg: cfg, guess: make([]int, 0, maxParsed), code: make([]int, 0, 9)}
	e.rng = rand.New(&e.src)
	e.lv = cfg.Level
	if cfg.Random { // the largest drawn level, for SampleAction before Reset
		e.lv = randomLevels[len(randomLevels)-1]
	}
	return e, nil
}

// Reset starts a new episode; the same seed gives the same episode.
func (e *Env) Reset(seed uint64) (string, envs.Info, error) {
	e.src.Seed(seed, rngStream)
	if e.cfg.Random {
		e.lv = randomLevels[e.rng.IntN(len(randomLevels))]
		if e.cfg.MaxTurns > 0 {
			e.lv.MaxTurns = e.cfg.MaxTurns
		}
	}
	// A code of distinct digits: the first Length of a shuffle of 1..Digits.
	var pool [9]int
	for i := range e.lv.Digits {
		pool[i] = i + 1
	}
	e.code = e.code[:0]
	for i := range e.lv.Length {
		j := i + e.rng.IntN(e.lv.Digits-i)
		pool[i], pool[j] = pool[j], pool[i]
		e.code = append(e.code, pool[i])
	}
	e.best = 0
	e.resetCandidates()
	e.ep.Start()
	info := envs.Info{envs.InfoMaxTurns: e.lv.MaxTurns, "length": e.lv.Length, "digits": e.lv.Digits}
	return e.intro(), info, nil
}

// Step plays one guess.
func (e *Env) Step(action string) (envs.Step, error) {
	info, err := e.ep.Begin()
	if err != nil {
		return envs.Step{}, err
	}
	content, ok := envs.LastBoxed(action)
	var n int
	if ok {
		e.guess, n, ok = parseGuess(content, e.guess)
	}
	if !ok {
		e.end(info, false)
		return gamekit.FormatError(info, e.formatError()), nil
	}
	last := e.ep.Turn >= e.lv.MaxTurns

	if problem := e.check(n); problem != "" {
		info[envs.InfoInvalid] = true
		st := envs.Step{Obs: e.invalid(n, problem, last), Info: info}
		if last {
			e.end(info, false)
			st.Truncated = true
		}
		return st, nil
	}

	black, white := score(e.code, e.guess, e.lv.Digits)
	info["black"], info["white"] = black, white
	e.keepConsistent(black, white)
	st := envs.Step{Info: info}
	if black > e.best {
		st.Reward = float64(black-e.best) / float64(e.lv.Length)
		e.best = black
	}
	solved := black == e.lv.Length
	switch {
	case solved:
		e.end(info, true)
		st.Terminated = true
	case last:
		e.end(info, false)
		st.Truncated = true
	}
	st.Obs = e.feedback(black, white, solved, last)
	return st, nil
}

// check returns why the parsed guess of n numbers is not a legal move, or "".
func (e *Env) check(n int) string {
	if n != e.lv.Length {
		return "length"
	}
	for _, g := range e.guess {
		if g < 1 || g > e.lv.Digits {
			return "range"
		}
	}
	return ""
}

// end closes the episode and reveals the code in info.
func (e *Env) end(info envs.Info, success bool) {
	e.ep.Active = false
	info[envs.InfoSuccess] = success
	info["code"] = joinDigits(e.code, len(e.code))
}

// SampleAction returns a random guess of the right length with digits in
// range (possibly repeated), as \boxed{d d ...}; with
// Config.SampleConsistent, a code consistent with the pegs so far.
func (e *Env) SampleAction(r *rand.Rand) string {
	if n := len(e.cands) / max(e.lv.Length, 1); n > 0 {
		return e.candidate(r.IntN(n))
	}
	var b strings.Builder
	b.WriteString(`\boxed{`)
	for i := range e.lv.Length {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteByte(byte('1' + r.IntN(e.lv.Digits)))
	}
	b.WriteByte('}')
	return b.String()
}

// Description says what the game is, in one line.
func (e *Env) Description() string {
	if e.cfg.Random {
		return "Mastermind: find a code of distinct digits from black/white pegs; the level is drawn each episode."
	}
	return fmt.Sprintf("Mastermind: find a code of %d distinct digits 1-%d from black/white pegs within %d turns.", e.lv.Length, e.lv.Digits, e.lv.MaxTurns)
}
