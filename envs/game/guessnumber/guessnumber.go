package guessnumber

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/game/gamekit"
)

// Config sets up a game. The zero Style means envs.StyleGEM.
type Config struct {
	// Min and Max bound the secret number (both included); Max > Min.
	// Ignored when Random is set.
	Min, Max int
	// MaxTurns is the turn limit; 0 means the level's default (for Random,
	// ⌈√(max−min)⌉+1 of the drawn range).
	MaxTurns int
	// Random draws Min ∈ [1, 10] and Max ∈ [Min+5, Min+50] on every Reset.
	Random bool
	// Style is the instruction style of the observations.
	Style envs.Style
	// NoPartialCredit makes a game lost at the turn limit pay 0 instead of
	// GEM's 1 − |guess − target|/(max − min). GEM's partial credit makes an
	// adjacent last guess worth nearly a win, which weakens the push to
	// solve; training may turn it off (option partial_credit: false).
	NoPartialCredit bool
	// SampleInterval makes SampleAction draw from the interval the hints
	// have left (option sample: interval) instead of the whole range (GEM's
	// random action, the default): random play, and so the vocabulary's
	// corpus and the format warm-up, then keeps to what the hints allow.
	SampleInterval bool
}

// Validate reports the first invalid field, naming it and its allowed range.
func (c Config) Validate() error {
	if err := gamekit.CheckStyle("guessnumber", c.Style); err != nil {
		return err
	}
	if c.MaxTurns < 0 {
		return fmt.Errorf("guessnumber: max_turns = %d: want at least 1 (or 0 for the default)", c.MaxTurns)
	}
	if !c.Random {
		if c.Min < -Bound || c.Max > Bound {
			return fmt.Errorf("guessnumber: min = %d, max = %d: both must lie in [%d, %d]", c.Min, c.Max, -Bound, Bound)
		}
		if c.Max <= c.Min {
			return fmt.Errorf("guessnumber: max = %d must be greater than min = %d", c.Max, c.Min)
		}
		if c.MaxTurns == 0 {
			return fmt.Errorf("guessnumber: max_turns must be set (at least 1) for a fixed range")
		}
	}
	return nil
}

// Bound is the largest magnitude allowed for Min and Max.
const Bound = 1_000_000_000

// Env is one GuessTheNumber game. It is not safe for concurrent use.
type Env struct {
	cfg Config
	src rand.PCG
	rng *rand.Rand

	// The current episode.
	lo, hi   int
	maxTurns int
	target   int
	ep       gamekit.Episode
	guessed  []int // in-range guesses made so far, at most maxTurns
	// left, right bound the numbers the hints have not ruled out (both
	// included); SampleAction draws from them with Config.SampleInterval.
	left, right int
}

var (
	_ envs.Env           = (*Env)(nil)
	_ envs.ActionSampler = (*Env)(nil)
	_ envs.Describer     = (*Env)(nil)
)

// rngStream is the second PCG word: it keeps this game's draws apart from
// other envs seeded with the same number.
const rngStream = 0x6775657373 // "guess"

// New returns a game for cfg.
func New(cfg Config) (*Env, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg.Style = gamekit.StyleOrGEM(cfg.Style)
	e := &Env{cfg: cfg}
	e.rng = rand.New(&e.src)
	e.lo, e.hi, e.maxTurns = cfg.Min, cfg.Max, cfg.MaxTurns
	if cfg.Random { // widest range a draw can give, for SampleAction before Reset
		e.lo, e.hi = 1, 60
	}
	return e, nil
}

// Reset starts a new episode; the same seed gives the same episode.
func (e *Env) Reset(seed uint64) (string, envs.Info, error) {
	e.src.Seed(seed, rngStream)
	if e.cfg.Random {
		e.lo = 1 + e.rng.IntN(10)
		e.hi = e.lo + 5 + e.rng.IntN(46)
		e.maxTurns = int(math.Ceil(math.Sqrt(float64(e.hi-e.lo)))) + 1
		if e.cfg.MaxTurns > 0 {
			e.maxTurns = e.cfg.MaxTurns
		}
	}
	e.target = e.lo + e.rng.IntN(e.hi-e.lo+1)
	e.ep.Start()
	e.guessed = e.guessed[:0]
	e.left, e.right = e.lo, e.hi
	info := envs.Info{envs.InfoMaxTurns: e.maxTurns, "min": e.lo, "max": e.hi}
	return e.intro(), info, nil
}

// Step plays one guess.
func (e *Env) Step(action string) (envs.Step, error) {
	info, err := e.ep.Begin()
	if err != nil {
		return envs.Step{}, err
	}
	content, ok := envs.LastBoxed(action)
	var guess int
	var text string
	if ok {
		guess, text, ok = parseGuess(content)
	}
	if !ok {
		e.ep.Active = false
		info["target"] = e.target
		return gamekit.FormatError(info, e.formatError()), nil
	}
	info["guess"] = guess

	var out outcome
	inRange := guess >= e.lo && guess <= e.hi
	switch {
	case !inRange:
		out = outRange
	case e.seen(guess):
		out = outRepeated
	case guess == e.target:
		out = outCorrect
	case guess < e.target:
		out = outHigher
	default:
		out = outLower
	}
	if out == outRange || out == outRepeated {
		info[envs.InfoInvalid] = true
	}
	if out != outRange && out != outRepeated {
		e.guessed = append(e.guessed, guess)
	}
	switch {
	case out == outHigher && guess >= e.left:
		e.left = guess + 1
	case out == outLower && guess <= e.right:
		e.right = guess - 1
	}

	if out == outCorrect {
		e.ep.Active = false
		info[envs.InfoSuccess] = true
		info["target"] = e.target
		return envs.Step{Obs: e.feedback(text, out, false), Reward: envs.RewardSuccess, Terminated: true, Info: info}, nil
	}
	if e.ep.Turn >= e.maxTurns {
		e.ep.Active = false
		info[envs.InfoSuccess] = false
		info["target"] = e.target
		reward := 0.0
		if inRange && !e.cfg.NoPartialCredit {
			reward = 1 - math.Abs(float64(guess-e.target))/float64(e.hi-e.lo)
		}
		return envs.Step{Obs: e.feedback(text, out, true), Reward: reward, Truncated: true, Info: info}, nil
	}
	return envs.Step{Obs: e.feedback(text, out, false), Info: info}, nil
}

// seen reports whether g was guessed before (a scan: at most maxTurns).
func (e *Env) seen(g int) bool {
	for _, p := range e.guessed {
		if p == g {
			return true
		}
	}
	return false
}

// SampleAction returns a random guess in the game's range, as \boxed{n};
// with Config.SampleInterval, in the interval the hints have left.
func (e *Env) SampleAction(r *rand.Rand) string {
	lo, hi := e.lo, e.hi
	if e.cfg.SampleInterval && e.left <= e.right {
		lo, hi = e.left, e.right
	}
	return envs.Boxed(strconv.Itoa(lo + r.IntN(hi-lo+1)))
}

// Description says what the game is, in one line.
func (e *Env) Description() string {
	if e.cfg.Random {
		return "Guess a secret number from higher/lower hints; the range and turn limit are drawn each episode."
	}
	return fmt.Sprintf("Guess a secret number between %d and %d from higher/lower hints within %d turns.", e.cfg.Min, e.cfg.Max, e.cfg.MaxTurns)
}
