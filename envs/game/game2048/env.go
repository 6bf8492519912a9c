package game2048

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"strconv"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/game/gamekit"
)

// Level is one difficulty: the tile to build and the turn limit.
type Level struct {
	Name   string
	Target int // a power of two in [16, 65536]
	Turns  int
}

// Env is a 2048 episode. Make it with New or through a Registry.
type Env struct {
	levels   []Level
	style    envs.Style
	maxTurns int    // 0: the level's own limit
	sample   Sample // SampleAction's player; "" is SampleAny

	pcg      *rand.PCG
	rng      *rand.Rand
	lv       Level
	b        board
	startMax int // largest tile at Reset
	credited int // largest tile whose reward has been paid
	limit    int
	ep       gamekit.Episode
	buf      []byte
	last     dir // the move the latest Step asked for, valid or not (this episode's when ep.Turn > 0)
}

var (
	_ envs.Env           = (*Env)(nil)
	_ envs.ActionSampler = (*Env)(nil)
	_ envs.Describer     = (*Env)(nil)
)

// New returns an env that plays one of levels (drawn on each Reset when
// there are several). maxTurns 0 keeps each level's limit.
func New(levels []Level, style envs.Style, maxTurns int) (*Env, error) {
	if len(levels) == 0 {
		return nil, fmt.Errorf("game2048: no levels given")
	}
	for _, l := range levels {
		if l.Target < 16 || l.Target > 65536 || bits.OnesCount(uint(l.Target)) != 1 || l.Turns < 1 {
			return nil, fmt.Errorf("game2048: level %+v: want a power-of-two target in [16, 65536] and turns ≥ 1", l)
		}
	}
	pcg := rand.NewPCG(0, 0)
	return &Env{levels: levels, style: style, maxTurns: maxTurns, pcg: pcg, rng: rand.New(pcg)}, nil
}

// Description says what the env is in one line.
func (e *Env) Description() string {
	if len(e.levels) > 1 {
		return "2048 on 4×4: reach 16, 32 or 64 (drawn per episode)"
	}
	l := e.levels[0]
	return fmt.Sprintf("2048 on 4×4: reach the %d tile in %d turns", l.Target, l.Turns)
}

// Reset starts a board with two random tiles.
func (e *Env) Reset(seed uint64) (string, envs.Info, error) {
	e.pcg.Seed(seed, 0x32303438) // "2048"
	e.lv = gamekit.Pick(e.rng, e.levels)
	e.b = board{}
	e.b.spawn(e.rng)
	e.b.spawn(e.rng)
	e.startMax = e.b.maxTile()
	e.credited = e.startMax
	e.limit = gamekit.Limit(e.lv.Turns, e.maxTurns)
	e.ep.Start()
	obs := e.instructions() + "\n" + string(e.b.render(nil))
	return obs, envs.Info{envs.InfoMaxTurns: e.limit, "level": e.lv.Name, "target": e.lv.Target}, nil
}

func (e *Env) instructions() string {
	if e.style == envs.StyleBrief {
		return fmt.Sprintf(`2048 4x4: reach %d in %d turns. Equal tiles merge. Answer \boxed{left}, \boxed{right}, \boxed{up} or \boxed{down}.`,
			e.lv.Target, e.limit)
	}
	return fmt.Sprintf("You are playing 2048 on a 4x4 board ('.' is an empty cell). Each turn, slide all tiles "+
		"left, right, up or down; two equal tiles that meet merge into one tile of their sum, and then a 2 or a 4 "+
		"appears on an empty cell. Build a %d tile to win. The game ends early when no move is possible. "+
		"Give your move as \\boxed{left}, \\boxed{right}, \\boxed{up} or \\boxed{down}. You have %d turns.",
		e.lv.Target, e.limit)
}

// Step plays one move: see the package doc for the rules and rewards.
func (e *Env) Step(text string) (envs.Step, error) {
	info, err := e.ep.Begin()
	if err != nil {
		return envs.Step{}, err
	}
	d, err := parseAction(text)
	if err != nil {
		e.ep.Active = false
		return gamekit.FormatError(info, "Format error: "+err.Error()+`. Answer \boxed{left}, \boxed{right}, \boxed{up} or \boxed{down}.`), nil
	}
	e.last = d
	st := envs.Step{Info: info}
	var msg string
	changed, merged := e.b.move(d)
	switch {
	case !changed:
		info[envs.InfoInvalid] = true
		msg = "Invalid move: nothing can slide " + d.String() + "."
	default:
		if merged > e.credited {
			st.Reward = e.score(merged)
			e.credited = merged
		}
		e.b.spawn(e.rng)
		msg = "Moved " + d.String() + "."
	}
	switch {
	case e.credited >= e.lv.Target:
		st.Terminated = true
		info[envs.InfoSuccess] = true
		msg += " You built " + strconv.Itoa(e.lv.Target) + ": you win!"
	case !e.b.canMove():
		st.Terminated = true
		info[envs.InfoSuccess] = false
		msg += " No move is possible: game over."
	case e.ep.Turn >= e.limit:
		st.Truncated = true
		info[envs.InfoSuccess] = false
		msg += " Out of turns."
	}
	if st.Done() {
		e.ep.Active = false
	}
	e.buf = append(append(e.buf[:0], msg...), '\n')
	e.buf = e.b.render(e.buf)
	st.Obs = string(e.buf)
	return st, nil
}

// score is the reward for raising the credited maximum to tile.
func (e *Env) score(tile int) float64 {
	l2 := func(x int) float64 { return math.Log2(float64(x)) }
	tile = min(tile, e.lv.Target)
	return (l2(tile) - l2(e.credited)) / (l2(e.lv.Target) - l2(e.startMax))
}

// SampleAction returns a random move that always parses: during an
// episode, one that changes the board when there is one. With SetSample
// it plays, during an episode, the scripted player's move instead.
func (e *Env) SampleAction(r *rand.Rand) string {
	if e.ep.Active {
		// a turn taken asked for a move: one that parsed none ended the episode
		if d, ok := e.b.scripted(e.sample, e.last, e.ep.Turn > 0); ok {
			return envs.Boxed(d.String())
		}
	}
	move := dir(r.IntN(4)).String()
	if legal := e.LegalMoves(); len(legal) > 0 {
		move = legal[r.IntN(len(legal))]
	}
	return envs.Boxed(move)
}

// LegalMoves lists the moves that change the board (the env answers the
// others "Invalid move"), in the order left, right, up, down; none when
// no episode runs.
func (e *Env) LegalMoves() []string {
	if !e.ep.Active {
		return nil
	}
	var out []string
	for d := range dir(4) {
		if e.b.legal(d) {
			out = append(out, d.String())
		}
	}
	return out
}
