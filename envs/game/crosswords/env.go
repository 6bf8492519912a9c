package crosswords

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/game/gamekit"
	"github.com/gemgo/gemgo/envs/game/words"
)

// Setting is one difficulty: the number of words, the turn limit and
// whether the clues show word lengths.
type Setting struct {
	Words      int
	MaxTurns   int
	ShowLength bool
}

func settings(level string) ([]Setting, error) {
	easy := Setting{Words: 3, MaxTurns: 30, ShowLength: true}
	hard := Setting{Words: 3, MaxTurns: 40}
	switch level {
	case "easy", "":
		return []Setting{easy}, nil
	case "hard":
		return []Setting{hard}, nil
	case "random":
		return []Setting{easy, hard}, nil
	}
	return nil, fmt.Errorf("crosswords: level %q: want easy, hard or random", level)
}

// Config sets up a Crosswords env. Zero values mean the defaults.
type Config struct {
	// Level is "easy", "hard" or "random".
	Level string
	// Style of the instructions: envs.StyleGEM (default) or envs.StyleBrief.
	Style envs.Style
	// MaxTurns overrides the level's turn limit.
	MaxTurns int
	// Clues the words are drawn from (default words.Clues()).
	Clues []words.Clue
	// View is how the state is drawn: ViewGrid (default, GEM's grid) or
	// ViewCells (each clue followed by its cells, see view.go).
	View string
}

// Env is one Crosswords game. It is not safe for concurrent use.
type Env struct {
	cfg      Config
	settings []Setting
	clues    []words.Clue
	src      rand.PCG
	rng      *rand.Rand
	ep       gamekit.Episode
	maxTurns int
	puzzle   Puzzle
	setting  Setting
	filled   []byte // the player's letters, 0 where empty
	cells    int    // letter cells
	left     int    // letter cells still empty
	first    bool   // SampleAction plays the teacher (SetSample)
	sb       strings.Builder
}

var (
	_ envs.Env           = (*Env)(nil)
	_ envs.ActionSampler = (*Env)(nil)
	_ envs.Describer     = (*Env)(nil)
)

// New returns a Crosswords env.
func New(cfg Config) (*Env, error) {
	ss, err := settings(cfg.Level)
	if err != nil {
		return nil, err
	}
	if err := gamekit.Defaults("crosswords", &cfg.Level, &cfg.Style, cfg.MaxTurns); err != nil {
		return nil, err
	}
	switch cfg.View {
	case "":
		cfg.View = ViewGrid
	case ViewGrid, ViewCells:
	default:
		return nil, fmt.Errorf("crosswords: view %q: want %s or %s", cfg.View, ViewGrid, ViewCells)
	}
	clues := cfg.Clues
	if clues == nil {
		clues = words.Clues()
	}
	e := &Env{cfg: cfg, settings: ss, clues: clues}
	e.rng = rand.New(&e.src)
	// A grid must be possible: try one now rather than fail at Reset.
	if _, err := Generate(rand.New(rand.NewPCG(1, 2)), clues, ss[0].Words); err != nil {
		return nil, err
	}
	return e, nil
}

// Description implements envs.Describer.
func (e *Env) Description() string {
	return fmt.Sprintf("Crosswords (%s): fill a small crossword from its clues, one letter a turn", e.cfg.Level)
}

// Puzzle returns the current puzzle with its solution (for tests and
// debugging).
func (e *Env) Puzzle() Puzzle { return e.puzzle }

// Reset builds a new crossword from the seed alone.
func (e *Env) Reset(seed uint64) (string, envs.Info, error) {
	e.src.Seed(seed, 0x63726f7373) // "cross"
	e.setting = e.settings[e.rng.IntN(len(e.settings))]
	p, err := Generate(e.rng, e.clues, e.setting.Words)
	if err != nil {
		e.ep.Active = false
		return "", nil, fmt.Errorf("reset %d: %w", seed, err)
	}
	e.puzzle = p
	e.maxTurns = e.setting.MaxTurns
	if e.cfg.MaxTurns > 0 {
		e.maxTurns = e.cfg.MaxTurns
	}
	e.filled = make([]byte, len(p.Solution))
	e.cells = 0
	for _, l := range p.Solution {
		if l != 0 {
			e.cells++
		}
	}
	e.left = e.cells
	e.ep.Start()
	return e.instructions(), envs.Info{envs.InfoMaxTurns: e.maxTurns}, nil
}

func (e *Env) instructions() string {
	if e.cfg.View == ViewCells {
		return e.cellsInstructions()
	}
	var b strings.Builder
	if e.cfg.Style == envs.StyleBrief {
		fmt.Fprintf(&b, "Crossword, %d turns. Reply \\boxed{row col letter} (0-indexed). _ = empty, # = black.\n", e.maxTurns)
	} else {
		fmt.Fprintf(&b, "You are solving a crossword in at most %d turns. Each turn, write one letter into one empty cell "+
			"with \\boxed{row col letter}, rows and columns counted from 0, for example \\boxed{0 2 E}. "+
			"In the grid, _ is an empty cell and # a black cell. A wrong letter is not written.\n", e.maxTurns)
	}
	b.WriteString("Clues:\n")
	for i, en := range e.puzzle.Entries {
		dir := "across"
		if en.Down {
			dir = "down"
		}
		fmt.Fprintf(&b, "%d. (%d,%d) %s", i+1, en.Row, en.Col, dir)
		if e.setting.ShowLength {
			fmt.Fprintf(&b, ", %d letters", len(en.Word))
		}
		fmt.Fprintf(&b, ": %s\n", en.Clue)
	}
	b.WriteString("Grid:\n")
	e.writeGrid(&b)
	return strings.TrimRight(b.String(), "\n")
}

// writeGrid writes the grid with row and column numbers.
func (e *Env) writeGrid(b *strings.Builder) {
	p := &e.puzzle
	w := digits(max(p.Rows, p.Cols) - 1)
	pad(b, w, -1)
	for c := range p.Cols {
		b.WriteByte(' ')
		pad(b, w, c)
	}
	b.WriteByte('\n')
	for r := range p.Rows {
		pad(b, w, r)
		for c := range p.Cols {
			k := r*p.Cols + c
			ch := byte('#')
			switch {
			case e.filled[k] != 0:
				ch = e.filled[k] - 'a' + 'A'
			case p.Solution[k] != 0:
				ch = '_'
			}
			for range w {
				b.WriteByte(' ')
			}
			b.WriteByte(ch)
		}
		b.WriteByte('\n')
	}
}

// digits returns the number of decimal digits of n >= 0.
func digits(n int) int {
	d := 1
	for ; n >= 10; n /= 10 {
		d++
	}
	return d
}

// pad writes n right-aligned in w columns, or w spaces when n < 0.
func pad(b *strings.Builder, w, n int) {
	if n < 0 {
		for range w {
			b.WriteByte(' ')
		}
		return
	}
	for range w - digits(n) {
		b.WriteByte(' ')
	}
	var buf [20]byte
	b.Write(strconv.AppendInt(buf[:0], int64(n), 10))
}

// SampleAction returns a boxed move on a random empty letter cell with a
// random letter (cell 0 0 before the first Reset). With SetSample("first"),
// the teacher's move instead during an episode (r unread).
func (e *Env) SampleAction(r *rand.Rand) string {
	if e.first && e.ep.Active {
		if m, ok := e.teacherMove(); ok {
			return m
		}
	}
	letter := 'A' + byte(r.IntN(26))
	if e.left == 0 {
		return fmt.Sprintf("\\boxed{0 0 %c}", letter)
	}
	k := r.IntN(e.left)
	for i, l := range e.puzzle.Solution {
		if l == 0 || e.filled[i] != 0 {
			continue
		}
		if k == 0 {
			return fmt.Sprintf("\\boxed{%d %d %c}", i/e.puzzle.Cols, i%e.puzzle.Cols, letter)
		}
		k--
	}
	return fmt.Sprintf("\\boxed{0 0 %c}", letter) // unreachable: left counts the empty cells
}

// Step writes one letter.
func (e *Env) Step(action string) (envs.Step, error) {
	info, err := e.ep.Begin()
	if err != nil {
		return envs.Step{}, err
	}
	m, ok := ParseMove(action)
	if !ok {
		e.ep.Active = false
		return gamekit.FormatError(info, "Format error: reply with \\boxed{row col letter}, for example \\boxed{0 2 E}."), nil
	}
	st := envs.Step{Info: info}
	p := &e.puzzle
	up := m.Letter - 'a' + 'A'
	k := m.Row*p.Cols + m.Col
	switch {
	case m.Row < 0 || m.Col < 0 || m.Row >= p.Rows || m.Col >= p.Cols:
		info[envs.InfoInvalid] = true
		st.Obs = fmt.Sprintf("Invalid: the grid has rows 0-%d and columns 0-%d.", p.Rows-1, p.Cols-1)
	case p.Solution[k] == 0:
		info[envs.InfoInvalid] = true
		st.Obs = fmt.Sprintf("Invalid: (%d,%d) is a black cell.", m.Row, m.Col)
	case e.filled[k] != 0:
		info[envs.InfoInvalid] = true
		st.Obs = fmt.Sprintf("Invalid: (%d,%d) is already filled.", m.Row, m.Col)
	case p.Solution[k] != m.Letter:
		st.Obs = fmt.Sprintf("%c is wrong at (%d,%d).", up, m.Row, m.Col)
	default:
		e.filled[k] = m.Letter
		e.left--
		st.Reward = 1 / float64(e.cells)
		st.Obs = fmt.Sprintf("%c is right at (%d,%d).", up, m.Row, m.Col)
	}
	if e.left == 0 {
		st.Terminated = true
		info[envs.InfoSuccess] = true
		e.ep.Active = false
		st.Obs += " The crossword is complete."
		return st, nil
	}
	e.sb.Reset()
	e.sb.WriteString(st.Obs)
	if e.ep.Turn >= e.maxTurns {
		st.Truncated = true
		info[envs.InfoSuccess] = false
		e.ep.Active = false
		e.sb.WriteString(" Out of turns.")
	} else {
		fmt.Fprintf(&e.sb, " %d turns left.", e.maxTurns-e.ep.Turn)
	}
	e.sb.WriteByte('\n')
	if e.cfg.View == ViewCells {
		e.writeCells(&e.sb)
	} else {
		e.writeGrid(&e.sb)
	}
	st.Obs = strings.TrimRight(e.sb.String(), "\n")
	return st, nil
}
