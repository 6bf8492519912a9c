package sokoban

import (
	"fmt"
	"math/rand/v2"
	"strconv"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/game/gamekit"
)

// Level is one difficulty: an n×n room (walls included) with Boxes boxes
// and a turn limit.
type Level struct {
	Name  string
	Size  int // 5..10
	Boxes int // 1..4
	Turns int // rooms need at most 3/4 of these moves
}

// budget is the longest reverse walk for a level: the generated room is
// solvable in at most this many moves.
func (l Level) budget() int { return max(1, l.Turns*3/4) }

// Env is a Sokoban episode. Make it with New or through a Registry.
type Env struct {
	levels   []Level
	style    envs.Style
	maxTurns int  // 0: the level's own limit
	solver   bool // SampleAction plays the solver's move (SetSampleSolver)

	pcg      *rand.PCG
	rng      *rand.Rand
	lv       Level
	r        *room
	genSteps int // length of the reverse walk that made the room
	limit    int
	ep       gamekit.Episode
	buf      []byte
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
		return nil, fmt.Errorf("sokoban: no levels given")
	}
	for _, l := range levels {
		if l.Size < 5 || l.Size > 10 || l.Boxes < 1 || l.Boxes > 4 || l.Turns < 2 {
			return nil, fmt.Errorf("sokoban: level %+v: want size in [5, 10], boxes in [1, 4], turns ≥ 2", l)
		}
	}
	pcg := rand.NewPCG(0, 0)
	return &Env{levels: levels, style: style, maxTurns: maxTurns, pcg: pcg, rng: rand.New(pcg)}, nil
}

// Description says what the env is in one line.
func (e *Env) Description() string {
	if len(e.levels) > 1 {
		return "Sokoban, 6×6 with 2 boxes or 8×8 with 4 (drawn per episode): push every box onto a target"
	}
	l := e.levels[0]
	return fmt.Sprintf("Sokoban %d×%d with %d boxes in %d turns: push every box onto a target", l.Size, l.Size, l.Boxes, l.Turns)
}

// Reset generates a new solvable room.
func (e *Env) Reset(seed uint64) (string, envs.Info, error) {
	e.pcg.Seed(seed, 0x736f6b6f) // "soko"
	e.ep.Active = false
	e.lv = gamekit.Pick(e.rng, e.levels)
	r, steps, err := generate(e.rng, e.lv.Size, e.lv.Boxes, e.lv.budget())
	if err != nil {
		return "", nil, fmt.Errorf("reset seed %d: %w", seed, err)
	}
	e.r, e.genSteps = r, steps
	e.limit = gamekit.Limit(e.lv.Turns, e.maxTurns)
	e.ep.Start()
	obs := e.instructions() + "\n" + string(e.r.render(nil))
	return obs, envs.Info{envs.InfoMaxTurns: e.limit, "level": e.lv.Name}, nil
}

func (e *Env) instructions() string {
	if e.style == envs.StyleBrief {
		return fmt.Sprintf(`Sokoban, %d turns: push every box ($) onto a target (.); # wall, _ floor, @ you, * box on target. Answer \boxed{up}, \boxed{down}, \boxed{left} or \boxed{right}.`,
			e.limit)
	}
	return fmt.Sprintf("You are playing Sokoban. The room is drawn with '#' for a wall, '_' for floor, '.' for a target, "+
		"'$' for a box, '*' for a box on a target, '@' for you and '+' for you on a target. Each turn, move one cell "+
		"up, down, left or right; walking into a box pushes it one cell if the cell beyond is free. Boxes cannot be "+
		"pulled. Push all %d boxes onto targets to win. Give your move as \\boxed{up}, \\boxed{down}, \\boxed{left} "+
		"or \\boxed{right}. You have %d turns.", e.lv.Boxes, e.limit)
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
		return gamekit.FormatError(info, "Format error: "+err.Error()+`. Answer \boxed{up}, \boxed{down}, \boxed{left} or \boxed{right}.`), nil
	}
	st := envs.Step{Info: info}
	var msg string
	if why := e.r.blocked(d); why != "" {
		info[envs.InfoInvalid] = true
		msg = "Invalid move: cannot go " + d.String() + ", " + why + "."
	} else if e.r.move(d) {
		msg = "Pushed a box " + d.String() + "."
	} else {
		msg = "Moved " + d.String() + "."
	}
	on, boxes := e.r.onTarget()
	switch {
	case on == boxes:
		st.Terminated = true
		st.Reward = envs.RewardSuccess
		info[envs.InfoSuccess] = true
		msg += " Every box is on a target: you win!"
	case e.ep.Turn >= e.limit:
		st.Truncated = true
		st.Reward = float64(on) / float64(boxes)
		info[envs.InfoSuccess] = false
		msg += " Out of turns: " + strconv.Itoa(on) + " of " + strconv.Itoa(boxes) + " boxes on targets."
	}
	if st.Done() {
		e.ep.Active = false
	}
	e.buf = append(append(e.buf[:0], msg...), '\n')
	e.buf = e.r.render(e.buf)
	st.Obs = string(e.buf)
	return st, nil
}

// LegalMoves lists the steps that are not blocked (by a wall, or by a box
// that cannot be pushed), in the order up, down, left, right; none when no
// episode runs.
func (e *Env) LegalMoves() []string {
	if !e.ep.Active {
		return nil
	}
	var out []string
	for d := range dir(4) {
		if e.r.blocked(d) == "" {
			out = append(out, d.String())
		}
	}
	return out
}
