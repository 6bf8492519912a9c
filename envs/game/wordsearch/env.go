package wordsearch

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/game/gamekit"
	"github.com/gemgo/gemgo/envs/game/words"
)

// Setting is one difficulty.
type Setting struct {
	Name             string
	Size             int // the grid is Size×Size
	Words            int // hidden words
	MinLen, MaxLen   int // word lengths
	Dirs             []Dir
	MaxTurns         int
	DirectionsPhrase string // for the instructions
}

func settings(level string) ([]Setting, error) {
	easy := Setting{Name: "easy", Size: 8, Words: 5, MinLen: 3, MaxLen: 5, Dirs: Straight(), MaxTurns: 20,
		DirectionsPhrase: "left to right or top to bottom"}
	hard := Setting{Name: "hard", Size: 12, Words: 5, MinLen: 4, MaxLen: 7, Dirs: All(), MaxTurns: 20,
		DirectionsPhrase: "in any of the 8 directions, backwards and diagonals included"}
	switch level {
	case "easy", "":
		return []Setting{easy}, nil
	case "hard":
		return []Setting{hard}, nil
	case "random":
		return []Setting{easy, hard}, nil
	}
	return nil, fmt.Errorf("wordsearch: level %q: want easy, hard or random", level)
}

// Config sets up a WordSearch env. Zero values mean the defaults.
type Config struct {
	// Level is "easy", "hard" or "random".
	Level string
	// Style of the instructions: envs.StyleGEM (default) or envs.StyleBrief.
	Style envs.Style
	// MaxTurns overrides the level's turn limit (20).
	MaxTurns int
	// Words is the list the hidden words are drawn from (default
	// words.Common()).
	Words *words.List
	// SampleLast makes SampleAction the deterministic teacher of sample.go
	// (option sample = "last") instead of a random line.
	SampleLast bool
	// ShowGrid ends every observation after a move, as the first one ends,
	// with the words left and the grid (option show_grid).
	ShowGrid bool
}

// Env is one WordSearch game. It is not safe for concurrent use.
type Env struct {
	cfg      Config
	settings []Setting
	pools    [][]string // per setting: the words of allowed lengths
	src      rand.PCG
	rng      *rand.Rand
	ep       gamekit.Episode
	maxTurns int
	setting  Setting
	grid     Grid
	found    []bool // per grid.Words
	left     int
	buf      []byte
	sb       strings.Builder
}

var (
	_ envs.Env           = (*Env)(nil)
	_ envs.ActionSampler = (*Env)(nil)
	_ envs.Describer     = (*Env)(nil)
)

// New returns a WordSearch env. The word list must hold enough words of
// the lengths each setting uses.
func New(cfg Config) (*Env, error) {
	ss, err := settings(cfg.Level)
	if err != nil {
		return nil, err
	}
	if err := gamekit.Defaults("wordsearch", &cfg.Level, &cfg.Style, cfg.MaxTurns); err != nil {
		return nil, err
	}
	list := cfg.Words
	if list == nil {
		list = words.Common()
	}
	e := &Env{cfg: cfg, settings: ss}
	for _, s := range ss {
		var pool []string
		for n := s.MinLen; n <= s.MaxLen; n++ {
			pool = append(pool, list.OfLength(n)...)
		}
		if len(pool) < 4*s.Words {
			return nil, fmt.Errorf("wordsearch %s: the word list has %d words of %d-%d letters, want at least %d",
				s.Name, len(pool), s.MinLen, s.MaxLen, 4*s.Words)
		}
		e.pools = append(e.pools, pool)
	}
	e.rng = rand.New(&e.src)
	return e, nil
}

// Description implements envs.Describer.
func (e *Env) Description() string {
	return fmt.Sprintf("WordSearch (%s): find the listed words hidden in a grid of letters", e.cfg.Level)
}

// Grid returns the current grid with its hidden words (for tests and
// debugging).
func (e *Env) Grid() Grid { return e.grid }

// Reset builds a new grid from the seed alone.
func (e *Env) Reset(seed uint64) (string, envs.Info, error) {
	e.src.Seed(seed, 0x7365617263) // "search"
	i := e.rng.IntN(len(e.settings))
	e.setting = e.settings[i]
	g, err := Generate(e.rng, e.pools[i], e.setting.Size, e.setting.Words, e.setting.Dirs)
	if err != nil {
		e.ep.Active = false
		return "", nil, fmt.Errorf("reset %d: %w", seed, err)
	}
	e.grid = g
	e.found = make([]bool, len(g.Words))
	e.left = len(g.Words)
	e.maxTurns = e.setting.MaxTurns
	if e.cfg.MaxTurns > 0 {
		e.maxTurns = e.cfg.MaxTurns
	}
	e.ep.Start()
	return e.instructions(), envs.Info{envs.InfoMaxTurns: e.maxTurns}, nil
}

func (e *Env) instructions() string {
	var b strings.Builder
	n := len(e.grid.Words)
	if e.cfg.Style == envs.StyleBrief {
		fmt.Fprintf(&b, "Word search, %d turns. Reply \\boxed{r1 c1 r2 c2}: both ends of a word (0-indexed).\n", e.maxTurns)
	} else {
		fmt.Fprintf(&b, "You are playing a word search. %d words are hidden in the grid below, each running %s. "+
			"Find them in at most %d turns. Each turn, give the row and column of the first and last letter of one word "+
			"with \\boxed{r1 c1 r2 c2}, counting from 0, for example \\boxed{0 0 0 4}.\n",
			n, e.setting.DirectionsPhrase, e.maxTurns)
	}
	b.WriteString("Words: ")
	e.writeWords(&b, false)
	b.WriteString("\nGrid:\n")
	e.writeGrid(&b)
	return strings.TrimRight(b.String(), "\n")
}

// writeWords lists the hidden words (only those not found with left).
func (e *Env) writeWords(b *strings.Builder, left bool) {
	first := true
	for i, p := range e.grid.Words {
		if left && e.found[i] {
			continue
		}
		if !first {
			b.WriteByte(' ')
		}
		first = false
		for j := 0; j < len(p.Word); j++ {
			b.WriteByte(p.Word[j] - 'a' + 'A')
		}
	}
}

func (e *Env) writeGrid(b *strings.Builder) {
	g := &e.grid
	w := len(fmt.Sprint(g.Size - 1))
	b.WriteString(strings.Repeat(" ", w))
	for c := range g.Size {
		fmt.Fprintf(b, " %*d", w, c)
	}
	b.WriteByte('\n')
	for r := range g.Size {
		fmt.Fprintf(b, "%*d", w, r)
		for c := range g.Size {
			b.WriteString(strings.Repeat(" ", w))
			b.WriteByte(g.Letters[r*g.Size+c] - 'a' + 'A')
		}
		b.WriteByte('\n')
	}
}

// SampleAction returns a boxed straight line of 3 to 7 cells inside the
// grid, in a direction of the level (a line of the 8×8 easy grid before
// the first Reset); with Config.SampleLast, the teacher's move (LastMove).
func (e *Env) SampleAction(r *rand.Rand) string {
	if e.cfg.SampleLast {
		if m, ok := e.LastMove(); ok {
			return m
		}
	}
	size, dirs := e.grid.Size, e.setting.Dirs
	if size == 0 {
		size, dirs = 8, Straight()
	}
	d := dirs[r.IntN(len(dirs))]
	n := 2 + r.IntN(5)
	// Start where the line stays in the grid (sizes are at least 8 > n).
	lo := func(step int) int {
		if step < 0 {
			return n
		}
		return 0
	}
	hi := func(step int) int {
		if step > 0 {
			return size - 1 - n
		}
		return size - 1
	}
	r1 := lo(d.DR) + r.IntN(hi(d.DR)-lo(d.DR)+1)
	c1 := lo(d.DC) + r.IntN(hi(d.DC)-lo(d.DC)+1)
	return Move{r1, c1, r1 + d.DR*n, c1 + d.DC*n}.String()
}

// Step checks one pair of ends.
func (e *Env) Step(action string) (envs.Step, error) {
	info, err := e.ep.Begin()
	if err != nil {
		return envs.Step{}, err
	}
	m, ok := ParseMove(action)
	if !ok {
		e.ep.Active = false
		return gamekit.FormatError(info, "Format error: reply with \\boxed{r1 c1 r2 c2}, for example \\boxed{0 0 0 4}."), nil
	}
	st := envs.Step{Info: info}
	e.sb.Reset()
	line, ok := e.grid.Read(e.buf[:0], m.R1, m.C1, m.R2, m.C2)
	e.buf = line
	switch {
	case !ok:
		info[envs.InfoInvalid] = true
		fmt.Fprintf(&e.sb, "Invalid: the ends must be inside the %dx%d grid, on one row, column or diagonal.", e.grid.Size, e.grid.Size)
	default:
		i := e.match(m.R1, m.C1, m.R2, m.C2)
		switch {
		case i < 0:
			fmt.Fprintf(&e.sb, "No hidden word from (%d,%d) to (%d,%d).", m.R1, m.C1, m.R2, m.C2)
		case e.found[i]:
			info[envs.InfoInvalid] = true
			fmt.Fprintf(&e.sb, "Invalid: %s was already found.", strings.ToUpper(e.grid.Words[i].Word))
		default:
			e.found[i] = true
			e.left--
			st.Reward = 1 / float64(len(e.grid.Words))
			fmt.Fprintf(&e.sb, "Found %s (%d of %d).", strings.ToUpper(e.grid.Words[i].Word),
				len(e.grid.Words)-e.left, len(e.grid.Words))
		}
	}
	switch {
	case e.left == 0:
		st.Terminated = true
		info[envs.InfoSuccess] = true
		e.ep.Active = false
		e.sb.WriteString(" All words found.")
	case e.ep.Turn >= e.maxTurns:
		st.Truncated = true
		info[envs.InfoSuccess] = false
		e.ep.Active = false
		e.sb.WriteString(" Out of turns.")
	default:
		if e.cfg.ShowGrid {
			fmt.Fprintf(&e.sb, " %d turns left.\nWords: ", e.maxTurns-e.ep.Turn)
			e.writeWords(&e.sb, true)
			e.sb.WriteString("\nGrid:\n")
			e.writeGrid(&e.sb)
			st.Obs = strings.TrimRight(e.sb.String(), "\n")
			return st, nil
		}
		e.sb.WriteString(" Left: ")
		e.writeWords(&e.sb, true)
		fmt.Fprintf(&e.sb, ". %d turns left.", e.maxTurns-e.ep.Turn)
	}
	st.Obs = e.sb.String()
	return st, nil
}

// match returns the index of the hidden word whose two ends are (r1, c1)
// and (r2, c2), in either order, or -1. A word is credited only for its own
// cells: the letters of some other line, even one that spells the word,
// never name it (Generate makes such lines impossible).
func (e *Env) match(r1, c1, r2, c2 int) int {
	for i, p := range e.grid.Words {
		er, ec := p.End()
		if (r1 == p.Row && c1 == p.Col && r2 == er && c2 == ec) || (r1 == er && c1 == ec && r2 == p.Row && c2 == p.Col) {
			return i
		}
	}
	return -1
}
