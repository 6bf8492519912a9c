package minesweeper

import (
	"fmt"
	"math/rand/v2"
	"strconv"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/game/gamekit"
)

// Level is one difficulty: an n×n board with Mines mines and a turn limit.
type Level struct {
	Name  string
	Size  int // rows = columns, 2..10
	Mines int // at most Size²−9, so that mines fit outside the first 3×3
	Turns int
}

// Env is a Minesweeper episode. Make it with New or through a Registry.
type Env struct {
	levels   []Level // one per fixed level; several for -random
	style    envs.Style
	maxTurns int  // 0: the level's own limit
	deduce   bool // SampleAction plays the teacher (SetSampleDeduce)

	pcg   *rand.PCG
	rng   *rand.Rand
	lv    Level
	b     *board
	limit int
	ep    gamekit.Episode
	buf   []byte
	proof []bool // the teacher's scratch: cells proven mines
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
		return nil, fmt.Errorf("minesweeper: no levels given")
	}
	for _, l := range levels {
		if l.Size < 2 || l.Size > 10 || l.Mines < 1 || l.Mines > l.Size*l.Size-9 || l.Turns < 1 {
			return nil, fmt.Errorf("minesweeper: level %+v: want size in [2, 10], mines in [1, size²−9], turns ≥ 1", l)
		}
	}
	pcg := rand.NewPCG(0, 0)
	return &Env{levels: levels, style: style, maxTurns: maxTurns, pcg: pcg, rng: rand.New(pcg), b: &board{}}, nil
}

// Description says what the env is in one line.
func (e *Env) Description() string {
	if len(e.levels) > 1 {
		return "Minesweeper on a random board from 5×5 to 8×8: reveal every safe cell"
	}
	l := e.levels[0]
	return fmt.Sprintf("Minesweeper %d×%d with %d mines in %d turns: reveal every safe cell", l.Size, l.Size, l.Mines, l.Turns)
}

// Reset starts a new board; the mines are placed at the first reveal.
func (e *Env) Reset(seed uint64) (string, envs.Info, error) {
	e.pcg.Seed(seed, 0x6d696e6573) // "mines"
	e.lv = gamekit.Pick(e.rng, e.levels)
	e.b.reset(e.lv.Size, e.lv.Mines)
	e.limit = gamekit.Limit(e.lv.Turns, e.maxTurns)
	e.ep.Start()
	obs := e.instructions() + "\n" + string(e.b.render(nil, false))
	return obs, envs.Info{envs.InfoMaxTurns: e.limit, "level": e.lv.Name}, nil
}

func (e *Env) instructions() string {
	l := e.lv
	if e.style == envs.StyleBrief {
		return fmt.Sprintf(`Minesweeper %dx%d, %d mines, %d turns. Reveal all safe cells. Answer \boxed{reveal r c} or \boxed{flag r c}, 0-indexed.`,
			l.Size, l.Size, l.Mines, e.limit)
	}
	return fmt.Sprintf("You are playing Minesweeper on a %dx%d grid with %d hidden mines. "+
		"Rows and columns are numbered from 0. In the grid, '.' is a hidden cell, 'F' a flag, and a digit "+
		"a revealed cell showing how many of its 8 neighbours hold a mine; revealing a 0 also reveals its neighbours. "+
		"Your first reveal is always safe. You win when every cell without a mine is revealed (flags are optional); "+
		"revealing a mine ends the game. Each turn, give one move as \\boxed{reveal r c} or \\boxed{flag r c} "+
		"(flag toggles a flag), for example \\boxed{reveal 2 3}. You have %d turns.",
		l.Size, l.Size, l.Mines, e.limit)
}

// outcome of a move
const (
	goesOn = iota
	won
	lost
)

// Step plays one move: see the package doc for the rules and rewards.
func (e *Env) Step(text string) (envs.Step, error) {
	info, err := e.ep.Begin()
	if err != nil {
		return envs.Step{}, err
	}
	a, err := parseAction(text)
	if err != nil {
		e.ep.Active = false
		return gamekit.FormatError(info, "Format error: "+err.Error()+`. Answer \boxed{reveal r c} or \boxed{flag r c}.`), nil
	}
	msg, reward, end, invalid := e.apply(a)
	st := envs.Step{Reward: reward, Info: info}
	if invalid {
		info[envs.InfoInvalid] = true
	}
	switch {
	case end != goesOn:
		st.Terminated = true
		info[envs.InfoSuccess] = end == won
	case e.ep.Turn >= e.limit:
		st.Truncated = true
		info[envs.InfoSuccess] = false
		msg += " Out of turns."
	}
	if st.Done() {
		e.ep.Active = false
	}
	e.buf = append(append(e.buf[:0], msg...), '\n')
	e.buf = e.b.render(e.buf, end == lost)
	st.Obs = string(e.buf)
	return st, nil
}

// apply plays a parsed move on the board.
func (e *Env) apply(a action) (msg string, reward float64, end int, invalid bool) {
	b := e.b
	if !b.inside(a.r, a.c) {
		return fmt.Sprintf("Invalid move: (%d, %d) is off the board; rows and columns go from 0 to %d.", a.r, a.c, b.n-1), 0, goesOn, true
	}
	i := a.r*b.n + a.c
	if b.state[i] == revealed {
		return fmt.Sprintf("Invalid move: (%d, %d) is already revealed.", a.r, a.c), 0, goesOn, true
	}
	if a.flag {
		if b.state[i] == flagged {
			b.state[i] = hidden
			return fmt.Sprintf("Removed the flag at (%d, %d).", a.r, a.c), 0, goesOn, false
		}
		b.state[i] = flagged
		return fmt.Sprintf("Flagged (%d, %d).", a.r, a.c), 0, goesOn, false
	}
	if b.state[i] == flagged {
		return fmt.Sprintf("Invalid move: (%d, %d) is flagged; flag it again to remove the flag first.", a.r, a.c), 0, goesOn, true
	}
	if !b.placed {
		b.placeMines(e.rng, a.r, a.c)
	}
	if b.mine[i] {
		return fmt.Sprintf("Boom: (%d, %d) was a mine. You lose.", a.r, a.c), 0, lost, false
	}
	n := b.reveal(i)
	reward = float64(n) / float64(b.safeCells())
	if b.won() {
		return "Revealed " + strconv.Itoa(n) + " cells. Every safe cell is revealed: you win!", reward, won, false
	}
	return "Revealed " + strconv.Itoa(n) + " cells.", reward, goesOn, false
}

// SetSampleDeduce makes SampleAction play, during an episode, the teacher
// of the option sample: deduce: the centre first, then the first hidden
// cell in reading order that the single-number rules prove safe, else the
// first hidden cell they do not prove a mine (board.deduce). It reads the
// visible board only and never flags; the game is unchanged.
func (e *Env) SetSampleDeduce(on bool) { e.deduce = on }

// SampleAction returns a random move that always parses: during an episode,
// mostly a reveal of a hidden unflagged cell; otherwise any cell. With
// SetSampleDeduce, the teacher's reveal instead (r unread) while a hidden
// unflagged cell is left.
func (e *Env) SampleAction(r *rand.Rand) string {
	n := e.lv.Size
	if n == 0 {
		n = e.levels[0].Size
	}
	if e.deduce && e.ep.Active {
		if len(e.proof) < n*n {
			e.proof = make([]bool, n*n)
		}
		if i, ok := e.b.deduce(e.proof); ok {
			return envs.Boxed(fmt.Sprintf("reveal %d %d", i/n, i%n))
		}
	}
	verb := "reveal"
	if r.IntN(5) == 0 {
		verb = "flag"
	}
	cell := r.IntN(n * n)
	if e.ep.Active {
		var open []int
		for i, s := range e.b.state {
			if s == hidden {
				open = append(open, i)
			}
		}
		if len(open) > 0 {
			cell = open[r.IntN(len(open))]
		}
	}
	return envs.Boxed(fmt.Sprintf("%s %d %d", verb, cell/n, cell%n))
}
