package fifteen

import (
	"fmt"
	"math/rand/v2"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/game/gamekit"
)

// Level is one difficulty: the board size and the turn limit.
type Level struct {
	Size, MaxTurns int
}

// randomLevels are the levels -random draws from.
var randomLevels = [...]Level{{2, 10}, {3, 20}, {4, 50}}

// MaxSize is the largest board side.
const MaxSize = 8

// Config sets up a game. The zero Style means envs.StyleGEM.
type Config struct {
	// Level is the fixed difficulty; ignored when Random is set, except that
	// a non-zero MaxTurns overrides the drawn turn limit.
	Level
	// Scramble is the number of random moves from the goal to the start;
	// 0 means half the level's turn limit. It must be below the turn limit.
	Scramble int
	// Random draws a level from (2, 10), (3, 20), (4, 50) on every Reset.
	Random bool
	// Style is the instruction style of the observations.
	Style envs.Style
}

// Validate reports the first invalid field, naming it and its allowed range.
func (c Config) Validate() error {
	if err := gamekit.CheckStyle("fifteen", c.Style); err != nil {
		return err
	}
	if err := gamekit.CheckMaxTurns("fifteen", c.MaxTurns, c.Random); err != nil {
		return err
	}
	if c.Scramble < 0 {
		return fmt.Errorf("fifteen: scramble = %d: want at least 1 (or 0 for the default)", c.Scramble)
	}
	if c.Random {
		if c.MaxTurns > 0 && c.Scramble > 0 && c.Scramble >= c.MaxTurns {
			return fmt.Errorf("fifteen: scramble = %d must be below max_turns = %d", c.Scramble, c.MaxTurns)
		}
		if c.MaxTurns == 0 && c.Scramble >= randomLevels[0].MaxTurns {
			return fmt.Errorf("fifteen: scramble = %d must be below the smallest turn limit of random, %d (or set max_turns)", c.Scramble, randomLevels[0].MaxTurns)
		}
		if c.MaxTurns > 0 && c.Scramble == 0 && c.MaxTurns <= randomLevels[len(randomLevels)-1].MaxTurns/2 {
			return fmt.Errorf("fifteen: max_turns = %d is too few for the default scramble of random (up to %d moves): want more than %d, or set scramble",
				c.MaxTurns, randomLevels[len(randomLevels)-1].MaxTurns/2, randomLevels[len(randomLevels)-1].MaxTurns/2)
		}
		return nil
	}
	if c.Size < 2 || c.Size > MaxSize {
		return fmt.Errorf("fifteen: size = %d is out of range: allowed [2, %d]", c.Size, MaxSize)
	}
	if c.Scramble >= c.MaxTurns || (c.Scramble == 0 && c.MaxTurns < 2) {
		return fmt.Errorf("fifteen: scramble = %d must be below max_turns = %d", c.scrambleFor(c.Level), c.MaxTurns)
	}
	return nil
}

// scrambleFor is the scramble length of level lv.
func (c Config) scrambleFor(lv Level) int {
	if c.Scramble > 0 {
		return c.Scramble
	}
	return max(1, lv.MaxTurns/2)
}

// Env is one sliding-puzzle game. It is not safe for concurrent use.
type Env struct {
	cfg Config
	src rand.PCG
	rng *rand.Rand

	// The current episode.
	lv       Level
	b        board
	scramble []int // the moves from the goal to the start (for tests)
	ep       gamekit.Episode
}

var (
	_ envs.Env           = (*Env)(nil)
	_ envs.ActionSampler = (*Env)(nil)
	_ envs.Describer     = (*Env)(nil)
)

// rngStream is the second PCG word, apart from other envs' streams.
const rngStream = 0x66696674656e // "fiften"

// New returns a game for cfg.
func New(cfg Config) (*Env, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg.Style = gamekit.StyleOrGEM(cfg.Style)
	e := &Env{cfg: cfg, lv: cfg.Level}
	e.rng = rand.New(&e.src)
	return e, nil
}

// Reset starts a new episode; the same seed gives the same board.
func (e *Env) Reset(seed uint64) (string, envs.Info, error) {
	e.src.Seed(seed, rngStream)
	lv := e.cfg.Level
	if e.cfg.Random {
		lv = randomLevels[e.rng.IntN(len(randomLevels))]
	}
	k := e.cfg.scrambleFor(lv)
	if e.cfg.MaxTurns > 0 {
		lv.MaxTurns = e.cfg.MaxTurns
	}
	e.lv = lv
	e.b.reset(lv.Size)
	e.scramble = e.b.scramble(e.rng, k, e.scramble)
	e.ep.Start()
	return e.intro(), envs.Info{envs.InfoMaxTurns: lv.MaxTurns, "size": lv.Size}, nil
}

// Step plays one move.
func (e *Env) Step(action string) (envs.Step, error) {
	info, err := e.ep.Begin()
	if err != nil {
		return envs.Step{}, err
	}
	content, ok := envs.LastBoxed(action)
	var dir int
	if ok {
		dir, ok = parseDir(content)
	}
	if !ok {
		e.end(info, false)
		return gamekit.FormatError(info, e.formatError()), nil
	}
	moved := e.b.move(dir)
	if !moved {
		info[envs.InfoInvalid] = true
	}
	st := envs.Step{Info: info}
	solved := e.b.solved()
	last := e.ep.Turn >= e.lv.MaxTurns
	switch {
	case solved:
		e.end(info, true)
		st.Reward, st.Terminated = envs.RewardSuccess, true
	case last:
		e.end(info, false)
		st.Reward, st.Truncated = float64(e.b.inPlace())/float64(e.lv.Size*e.lv.Size-1), true
	}
	st.Obs = e.feedback(dir, moved, solved, last)
	return st, nil
}

// end closes the episode.
func (e *Env) end(info envs.Info, success bool) {
	e.ep.Active = false
	info[envs.InfoSuccess] = success
	info["tiles_in_place"] = e.b.inPlace()
}

// SampleAction returns a random direction as \boxed{dir}: during an episode
// one that moves a tile, otherwise any of the four.
func (e *Env) SampleAction(r *rand.Rand) string {
	if legal := e.LegalMoves(); len(legal) > 0 {
		return envs.Boxed(legal[r.IntN(len(legal))])
	}
	return envs.Boxed(dirNames[r.IntN(4)])
}

// Description says what the game is, in one line.
func (e *Env) Description() string {
	if e.cfg.Random {
		return "Sliding puzzle: put the tiles in order; the board size and turn limit are drawn each episode."
	}
	return fmt.Sprintf("Sliding puzzle: put the tiles of a %dx%d board in order within %d turns.", e.lv.Size, e.lv.Size, e.lv.MaxTurns)
}

// LegalMoves lists the moves that slide a tile, in the order of dirNames;
// none when no episode runs.
func (e *Env) LegalMoves() []string {
	if !e.ep.Active {
		return nil
	}
	var out []string
	for d := range 4 {
		if e.b.source(d) >= 0 {
			out = append(out, dirNames[d])
		}
	}
	return out
}
