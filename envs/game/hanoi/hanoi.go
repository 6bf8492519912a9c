package hanoi

import (
	"fmt"
	"math/rand/v2"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/game/gamekit"
)

// Level is one difficulty: the number of disks and the turn limit.
type Level struct {
	Disks, MaxTurns int
}

// randomLevels are the levels -random draws from.
var randomLevels = [...]Level{{3, 10}, {4, 20}, {5, 35}}

// MaxDisks is the most disks a game may have.
const MaxDisks = 12

// Config sets up a game. The zero Style means envs.StyleGEM.
type Config struct {
	// Level is the fixed difficulty; ignored when Random is set, except that
	// a non-zero MaxTurns overrides the drawn turn limit.
	Level
	// Random draws a level from (3, 10), (4, 20), (5, 35) on every Reset.
	Random bool
	// Style is the instruction style of the observations.
	Style envs.Style
}

// Validate reports the first invalid field, naming it and its allowed range.
func (c Config) Validate() error {
	if err := gamekit.CheckStyle("hanoi", c.Style); err != nil {
		return err
	}
	if err := gamekit.CheckMaxTurns("hanoi", c.MaxTurns, c.Random); err != nil {
		return err
	}
	if c.Random {
		if c.MaxTurns > 0 && c.MaxTurns < 31 {
			return fmt.Errorf("hanoi: max_turns = %d cannot solve the 5-disk level of random: it needs at least 31", c.MaxTurns)
		}
		return nil
	}
	if c.Disks < 1 || c.Disks > MaxDisks {
		return fmt.Errorf("hanoi: disks = %d is out of range: allowed [1, %d]", c.Disks, MaxDisks)
	}
	if need := 1<<c.Disks - 1; c.MaxTurns < need {
		return fmt.Errorf("hanoi: max_turns = %d cannot solve %d disks: it needs at least 2^%d-1 = %d", c.MaxTurns, c.Disks, c.Disks, need)
	}
	return nil
}

// Env is one Tower of Hanoi game. It is not safe for concurrent use.
type Env struct {
	cfg Config
	src rand.PCG
	rng *rand.Rand

	// The current episode.
	lv   Level
	pegs [3][]int // bottom to top; disk sizes 1 (smallest) .. lv.Disks
	ep   gamekit.Episode
}

var (
	_ envs.Env           = (*Env)(nil)
	_ envs.ActionSampler = (*Env)(nil)
	_ envs.Describer     = (*Env)(nil)
)

// rngStream is the second PCG word, apart from other envs' streams.
const rngStream = 0x68616e6f69 // "hanoi"

// New returns a game for cfg.
func New(cfg Config) (*Env, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg.Style = gamekit.StyleOrGEM(cfg.Style)
	e := &Env{cfg: cfg, lv: cfg.Level}
	e.rng = rand.New(&e.src)
	for p := range e.pegs {
		e.pegs[p] = make([]int, 0, MaxDisks)
	}
	return e, nil
}

// Reset starts a new episode: every disk on A. The seed only matters to
// -random, which draws the level from it.
func (e *Env) Reset(seed uint64) (string, envs.Info, error) {
	e.src.Seed(seed, rngStream)
	if e.cfg.Random {
		e.lv = randomLevels[e.rng.IntN(len(randomLevels))]
		if e.cfg.MaxTurns > 0 {
			e.lv.MaxTurns = e.cfg.MaxTurns
		}
	}
	for p := range e.pegs {
		e.pegs[p] = e.pegs[p][:0]
	}
	for d := e.lv.Disks; d >= 1; d-- {
		e.pegs[0] = append(e.pegs[0], d)
	}
	e.ep.Start()
	return e.intro(), envs.Info{envs.InfoMaxTurns: e.lv.MaxTurns, "disks": e.lv.Disks}, nil
}

// Step plays one move.
func (e *Env) Step(action string) (envs.Step, error) {
	info, err := e.ep.Begin()
	if err != nil {
		return envs.Step{}, err
	}
	content, ok := envs.LastBoxed(action)
	var from, to int
	if ok {
		from, to, ok = parseMove(content)
	}
	if !ok {
		e.end(info, false)
		return gamekit.FormatError(info, e.formatError()), nil
	}

	problem := e.check(from, to)
	if problem != nil {
		info[envs.InfoInvalid] = true
	} else {
		src := e.pegs[from]
		e.pegs[to] = append(e.pegs[to], src[len(src)-1])
		e.pegs[from] = src[:len(src)-1]
	}
	st := envs.Step{Info: info}
	solved := len(e.pegs[2]) == e.lv.Disks
	last := e.ep.Turn >= e.lv.MaxTurns
	switch {
	case solved:
		e.end(info, true)
		st.Reward, st.Terminated = envs.RewardSuccess, true
	case last:
		e.end(info, false)
		st.Reward, st.Truncated = float64(len(e.pegs[2]))/float64(e.lv.Disks), true
	}
	st.Obs = e.feedback(from, to, problem, solved, last)
	return st, nil
}

// illegal says why a parsed move breaks the rules.
type illegal struct {
	kind       int // samePeg, emptyPeg or onSmaller
	disk, onto int // for onSmaller
}

const (
	samePeg = iota
	emptyPeg
	onSmaller
)

// check returns why moving the top disk of peg from onto peg to is not
// legal, or nil.
func (e *Env) check(from, to int) *illegal {
	switch {
	case from == to:
		return &illegal{kind: samePeg}
	case len(e.pegs[from]) == 0:
		return &illegal{kind: emptyPeg}
	}
	disk := e.pegs[from][len(e.pegs[from])-1]
	if t := e.pegs[to]; len(t) > 0 && t[len(t)-1] < disk {
		return &illegal{kind: onSmaller, disk: disk, onto: t[len(t)-1]}
	}
	return nil
}

// end closes the episode.
func (e *Env) end(info envs.Info, success bool) {
	e.ep.Active = false
	info[envs.InfoSuccess] = success
	info["disks_on_c"] = len(e.pegs[2])
}

// SampleAction returns a random move between two different pegs, as
// \boxed{X Y}. It always parses; it may be illegal.
func (e *Env) SampleAction(r *rand.Rand) string {
	from := r.IntN(3)
	to := (from + 1 + r.IntN(2)) % 3
	return envs.Boxed(string(rune('A'+from)) + " " + string(rune('A'+to)))
}

// Description says what the game is, in one line.
func (e *Env) Description() string {
	if e.cfg.Random {
		return "Tower of Hanoi: move the tower from peg A to peg C; the disks and turn limit are drawn each episode."
	}
	return fmt.Sprintf("Tower of Hanoi: move %d disks from peg A to peg C within %d turns.", e.lv.Disks, e.lv.MaxTurns)
}

// LegalMoves lists the legal moves ("A C": the top disk of A onto C), from
// peg A to C, each to A to C; none when no episode runs.
func (e *Env) LegalMoves() []string {
	if !e.ep.Active {
		return nil
	}
	var out []string
	for from := range 3 {
		for to := range 3 {
			if e.check(from, to) == nil {
				out = append(out, string(rune('A'+from))+" "+string(rune('A'+to)))
			}
		}
	}
	return out
}
