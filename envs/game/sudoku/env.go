package sudoku

import (
	"fmt"
	"math/rand/v2"
	"strconv"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/game/gamekit"
)

// Level is one difficulty: a Box²×Box² grid, the number of cells the
// generator tries to blank and a turn limit.
//
// Blanks counts empty cells, as GEM's clue parameter does: GEM's Sudoku
// tries to blank that many cells of a full grid, in random order, and
// fills a cell again when its blank would admit a second solution. gemgo
// does the same, so a puzzle has at most Blanks empty cells, and a few
// fewer when some of the tried cells had to stay.
type Level struct {
	Name   string
	Box    int // 2 (4×4 grid) or 3 (9×9 grid)
	Blanks int // cells to blank: at most n² − 1
	Turns  int
}

// Env is a Sudoku episode. Make it with New or through a Registry.
type Env struct {
	levels   []Level
	style    envs.Style
	maxTurns int  // 0: the level's own limit
	single   bool // SampleAction plays the first naked single (SetSampleSingle)
	first    bool // SampleAction guesses on the first unmarked empty cell (SetSampleFirst)
	mark     bool // rejected empty cells show as 'x' until the next placement (SetMarkRejected)
	markHit  bool // filled cells a move named show '!' before them until the next placement (SetMarkFilled)

	pcg      *rand.PCG
	rng      *rand.Rand
	lv       Level
	sh       shape
	sol      []int8
	grid     []int8
	marked   []bool // the empty cells rejected since the last placement (shown with mark)
	hit      []bool // the filled cells moves named since the last placement (shown with markHit)
	empty    int    // initially empty cells
	left     int    // cells still empty
	limit    int
	ep       gamekit.Episode
	buf      []byte
	scratchC []int
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
		return nil, fmt.Errorf("sudoku: no levels given")
	}
	for _, l := range levels {
		n := l.Box * l.Box
		if (l.Box != 2 && l.Box != 3) || l.Blanks < 1 || l.Blanks >= n*n || l.Turns < 1 {
			return nil, fmt.Errorf("sudoku: level %+v: want box 2 or 3, blanks in [1, n²), turns ≥ 1", l)
		}
	}
	pcg := rand.NewPCG(0, 0)
	return &Env{levels: levels, style: style, maxTurns: maxTurns, pcg: pcg, rng: rand.New(pcg)}, nil
}

// Description says what the env is in one line.
func (e *Env) Description() string {
	if len(e.levels) > 1 {
		return "Sudoku, 4×4 or 9×9 drawn per episode, unique solution"
	}
	l := e.levels[0]
	n := l.Box * l.Box
	return fmt.Sprintf("Sudoku %d×%d with up to %d empty cells in %d turns, unique solution", n, n, l.Blanks, l.Turns)
}

// Reset generates a new puzzle with a unique solution.
func (e *Env) Reset(seed uint64) (string, envs.Info, error) {
	e.pcg.Seed(seed, 0x7375646f6b75) // "sudoku"
	e.lv = gamekit.Pick(e.rng, e.levels)
	e.sh = shape{n: e.lv.Box * e.lv.Box, b: e.lv.Box}
	e.sol = e.sh.solution(e.rng)
	e.grid = e.sh.puzzle(e.rng, e.sol, e.lv.Blanks)
	e.empty = 0
	for _, v := range e.grid {
		if v == 0 {
			e.empty++
		}
	}
	e.left = e.empty
	e.marked = append(e.marked[:0], make([]bool, len(e.grid))...)
	e.hit = append(e.hit[:0], make([]bool, len(e.grid))...)
	e.limit = gamekit.Limit(e.lv.Turns, e.maxTurns)
	e.ep.Start()
	obs := e.instructions() + "\n" + string(e.sh.render(nil, e.grid, e.marks(), e.hits()))
	return obs, envs.Info{envs.InfoMaxTurns: e.limit, "level": e.lv.Name, "empty_cells": e.empty}, nil
}

func (e *Env) instructions() string {
	n, b := e.sh.n, e.sh.b
	if e.style == envs.StyleBrief {
		return fmt.Sprintf(`Sudoku %dx%d, %d turns. Fill each '.' so rows, columns and %dx%d boxes hold 1-%d once. Answer \boxed{row col num}, 1-indexed.`,
			n, n, e.limit, b, b, n)
	}
	return fmt.Sprintf("You are playing Sudoku on a %dx%d grid. Fill every empty cell ('.') with a number from 1 to %d "+
		"so that each row, each column and each of the %dx%d boxes contains every number exactly once. "+
		"The puzzle has exactly one solution. Rows and columns are numbered from 1. Each turn, place one number as "+
		"\\boxed{row col num}, for example \\boxed{1 2 %d}. A wrong number or a filled cell is rejected. You have %d turns.",
		n, n, n, b, b, n, e.limit)
}

// Step plays one placement: see the package doc for the rules and rewards.
func (e *Env) Step(text string) (envs.Step, error) {
	info, err := e.ep.Begin()
	if err != nil {
		return envs.Step{}, err
	}
	a, err := parseAction(text)
	if err != nil {
		e.ep.Active = false
		return gamekit.FormatError(info, "Format error: "+err.Error()+`. Answer \boxed{row col num}.`), nil
	}
	msg, reward, invalid := e.apply(a)
	st := envs.Step{Reward: reward, Info: info}
	if invalid {
		info[envs.InfoInvalid] = true
	}
	switch {
	case e.left == 0:
		st.Terminated = true
		info[envs.InfoSuccess] = true
		msg += " The grid is complete: you win!"
	case e.ep.Turn >= e.limit:
		st.Truncated = true
		info[envs.InfoSuccess] = false
		msg += " Out of turns."
	}
	if st.Done() {
		e.ep.Active = false
	}
	e.buf = append(append(e.buf[:0], msg...), '\n')
	e.buf = e.sh.render(e.buf, e.grid, e.marks(), e.hits())
	st.Obs = string(e.buf)
	return st, nil
}

func (e *Env) apply(a action) (msg string, reward float64, invalid bool) {
	n := e.sh.n
	if a.row < 1 || a.row > n || a.col < 1 || a.col > n || a.num < 1 || a.num > n {
		return fmt.Sprintf("Invalid move: row, column and number must each be from 1 to %d.", n), 0, true
	}
	i := (a.row-1)*n + a.col - 1
	if e.grid[i] != 0 {
		e.hit[i] = true
		return fmt.Sprintf("Invalid move: row %d column %d is already filled.", a.row, a.col), 0, true
	}
	v := int8(a.num)
	if v != e.sol[i] {
		e.marked[i] = true
		if where := e.sh.conflict(e.grid, a.row-1, a.col-1, v); where != "" {
			return fmt.Sprintf("Invalid move: %d is already in that %s.", a.num, where), 0, true
		}
		return fmt.Sprintf("Invalid move: %d at row %d column %d leaves the puzzle with no solution.", a.num, a.row, a.col), 0, true
	}
	e.grid[i] = v
	e.left--
	clear(e.marked)
	clear(e.hit)
	return "Placed " + strconv.Itoa(a.num) + " at row " + strconv.Itoa(a.row) + " column " + strconv.Itoa(a.col) + ".",
		1 / float64(e.empty), false
}

// marks is what render marks: the rejected cells with SetMarkRejected,
// else nil.
func (e *Env) marks() []bool {
	if !e.mark {
		return nil
	}
	return e.marked
}

// hits is what render marks before filled cells: the filled cells that
// moves named with SetMarkFilled, else nil.
func (e *Env) hits() []bool {
	if !e.markHit {
		return nil
	}
	return e.hit
}

// SetMarkFilled makes the grid of each observation show '!' in place of
// the space before every filled cell that a move named since the last
// accepted placement (such a move is rejected and changes nothing on
// GEM's grid); a placement clears the marks. The grid keeps its length
// and the cells their places. A move on a filled cell then changes what
// the player sees, as SetMarkRejected's marks do for the empty cells, so
// a player that answers each grid with one move need not repeat it. The
// rules, rewards and messages are unchanged, and so is the single
// player's move (it reads the numbers and the 'x' marks only). The option
// mark_filled: true sets it; GEM's observation (false, the default) has
// no such marks.
func (e *Env) SetMarkFilled(on bool) { e.markHit = on }

// SetMarkRejected makes the grid of each observation show as 'x' every
// empty cell on which a number was rejected (a clash or a number that
// leaves no solution) since the last accepted placement; a placement
// clears the marks. A rejected move then changes what the player sees, so
// a player that answers each grid with one move need not repeat it. The
// rules, rewards and messages are unchanged. The option mark_rejected:
// true sets it; GEM's observation (false, the default) has no marks.
func (e *Env) SetMarkRejected(on bool) { e.mark = on }

// SetSampleSingle makes SampleAction play, during an episode, the first
// naked single in reading order: the first empty cell (row by row) that
// only one number fits without clashing with a filled cell of its row,
// column or box, with that number, which is then the solution's. Where no
// cell has a single candidate it draws as by default. The game is
// unchanged. With SetMarkRejected it skips the marked cells, so that its
// move is a function of what the observation shows and differs from the
// rejected ones; where every naked single is marked it plays the first
// of them. The option sample: single sets it.
func (e *Env) SetSampleSingle(on bool) { e.single = on }

// SampleAction returns a random placement that always parses: during an
// episode, on an empty cell with a number that clashes with no filled cell
// (it may still be wrong). With SetSampleSingle, the first naked single
// instead where the grid has one.
func (e *Env) SampleAction(r *rand.Rand) string {
	if !e.ep.Active {
		n := e.levels[0].Box * e.levels[0].Box
		return envs.Boxed(action{1 + r.IntN(n), 1 + r.IntN(n), 1 + r.IntN(n)}.String())
	}
	if e.single {
		if a, ok := e.nakedSingle(); ok {
			return envs.Boxed(a.String())
		}
	}
	if e.first {
		if a, ok := e.firstGuess(); ok {
			return envs.Boxed(a.String())
		}
	}
	n := e.sh.n
	e.scratchC = e.scratchC[:0]
	for i, v := range e.grid {
		if v == 0 {
			e.scratchC = append(e.scratchC, i)
		}
	}
	i := e.scratchC[r.IntN(len(e.scratchC))] // an active episode has an empty cell
	row, col := i/n, i%n
	cands := e.candidates(nil, row, col)
	num := 1 + r.IntN(n)
	if len(cands) > 0 {
		num = cands[r.IntN(len(cands))]
	}
	return envs.Boxed(action{row + 1, col + 1, num}.String())
}

// SetSampleFirst makes SampleAction play, during an episode, the first
// empty cell in reading order that is not marked (SetMarkRejected), with
// the smallest number that clashes with no filled cell of its row, column
// or box; where every empty cell is marked, the first marked one. The
// guess is right when the cell is a naked single and may be wrong
// otherwise; rejected, it marks the cell, and the next move is the next
// unmarked cell's, so the player needs no search and reads one cell's
// row, column and box at a time. Its move is a function of what the
// observation shows. It is meant with SetMarkRejected: without the marks a
// rejected guess leaves the grid as it was and would be guessed again (the
// option sample: first requires mark_rejected: true). The game is
// unchanged.
func (e *Env) SetSampleFirst(on bool) { e.first = on }

// firstGuess is SetSampleFirst's move: the smallest fitting number of the
// first empty cell (every empty cell of a reachable grid has one, its
// solution's number, since every accepted number is the solution's).
func (e *Env) firstGuess() (action, bool) {
	return e.firstCell(func(fit []int) bool { return len(fit) > 0 })
}

// nakedSingle finds the first empty cell in reading order with exactly one
// number that clashes with no filled cell; with SetMarkRejected the first
// unmarked one, and the first marked one where all are marked.
func (e *Env) nakedSingle() (action, bool) {
	return e.firstCell(func(fit []int) bool { return len(fit) == 1 })
}

// firstCell returns the move that places the smallest fitting number on
// the first empty cell in reading order whose fitting numbers (candidates)
// accept takes; with SetMarkRejected the first such cell not marked, and
// the first marked one where every such cell is marked. false: no cell.
func (e *Env) firstCell(accept func(fit []int) bool) (action, bool) {
	n := e.sh.n
	var first action
	found := false
	for i, v := range e.grid {
		if v != 0 || (found && e.marked[i]) {
			continue
		}
		row, col := i/n, i%n
		if fit := e.candidates(nil, row, col); accept(fit) {
			a := action{row + 1, col + 1, fit[0]}
			if !e.mark || !e.marked[i] {
				return a, true
			}
			first, found = a, true
		}
	}
	return first, found
}

// candidates appends to dst the numbers 1..n, ascending, that clash with
// no filled cell of (row, col)'s row, column or box.
func (e *Env) candidates(dst []int, row, col int) []int {
	for d := 1; d <= e.sh.n; d++ {
		if e.sh.conflict(e.grid, row, col, int8(d)) == "" {
			dst = append(dst, d)
		}
	}
	return dst
}

// LegalMoves lists the placements the env accepts now: every empty cell
// with every digit that clashes with no filled cell of its row, column or
// box ("row col num", 1-indexed, row by row, digits ascending); none when
// no episode runs.
func (e *Env) LegalMoves() []string {
	if !e.ep.Active {
		return nil
	}
	n := e.sh.n
	var out []string
	for i, v := range e.grid {
		if v != 0 {
			continue
		}
		row, col := i/n, i%n
		for _, d := range e.candidates(nil, row, col) {
			out = append(out, action{row + 1, col + 1, d}.String())
		}
	}
	return out
}
