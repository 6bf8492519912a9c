package hangman

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/game/gamekit"
	"github.com/gemgo/gemgo/envs/game/words"
)

// Setting is a word length and its turn limit.
type Setting struct {
	Length   int
	MaxTurns int
}

// settings returns the settings a level draws from (one for easy and hard).
func settings(level string) ([]Setting, error) {
	switch level {
	case "easy", "":
		return []Setting{{3, 10}}, nil
	case "hard":
		return []Setting{{7, 20}}, nil
	case "random":
		return []Setting{{3, 10}, {5, 15}, {7, 20}}, nil
	}
	return nil, fmt.Errorf("hangman: level %q: want easy, hard or random", level)
}

// Config sets up a Hangman env. Zero values mean the defaults.
type Config struct {
	// Level is "easy", "hard" or "random".
	Level string
	// Style of the instructions: envs.StyleGEM (default) or envs.StyleBrief.
	Style envs.Style
	// MaxTurns overrides the level's turn limit.
	MaxTurns int
	// Words is the list the secret word is drawn from (default
	// words.Common()).
	Words *words.List
	// SampleConsistent makes SampleAction play among the words still
	// consistent with the game so far (option sample: consistent) instead
	// of any letter not yet tried.
	SampleConsistent bool
	// SampleMode makes SampleAction play the most likely letter of the
	// consistent sampler's draw (option sample: mode), a deterministic
	// teacher; it takes precedence over SampleConsistent.
	SampleMode bool
	// ShowTried ends each observation after a guess with the letters
	// guessed so far ("Tried: A, E, Z."; option show_tried), so that the
	// latest observation alone tells what is left to guess.
	ShowTried bool
}

// Env is one Hangman game. It is not safe for concurrent use.
type Env struct {
	cfg      Config
	settings []Setting
	list     *words.List
	src      rand.PCG
	rng      *rand.Rand
	ep       gamekit.Episode
	maxTurns int
	secret   string
	revealed []bool
	hidden   int      // positions not yet revealed
	tried    [26]bool // letters guessed
	wrong    []string // wrong words guessed
	cands    []string // scratch for the consistent sampler
	sb       strings.Builder
}

var (
	_ envs.Env           = (*Env)(nil)
	_ envs.ActionSampler = (*Env)(nil)
	_ envs.Describer     = (*Env)(nil)
)

// New returns a Hangman env. The word list must hold words of every length
// the level draws.
func New(cfg Config) (*Env, error) {
	ss, err := settings(cfg.Level)
	if err != nil {
		return nil, err
	}
	if err := gamekit.Defaults("hangman", &cfg.Level, &cfg.Style, cfg.MaxTurns); err != nil {
		return nil, err
	}
	list := cfg.Words
	if list == nil {
		list = words.Common()
	}
	for _, s := range ss {
		if len(list.OfLength(s.Length)) == 0 {
			return nil, fmt.Errorf("hangman %s: the word list has no %d-letter words", cfg.Level, s.Length)
		}
	}
	e := &Env{cfg: cfg, settings: ss, list: list}
	e.rng = rand.New(&e.src)
	return e, nil
}

// Description implements envs.Describer.
func (e *Env) Description() string {
	return fmt.Sprintf("Hangman (%s): find a secret word by guessing letters or the word", e.cfg.Level)
}

// Secret returns the secret word of the current episode (for tests and
// debugging).
func (e *Env) Secret() string { return e.secret }

// Reset starts an episode: the setting and the word are drawn by the seed
// alone.
func (e *Env) Reset(seed uint64) (string, envs.Info, error) {
	e.src.Seed(seed, 0x68616e676d616e) // "hangman"
	s := e.settings[e.rng.IntN(len(e.settings))]
	pool := e.list.OfLength(s.Length)
	e.secret = pool[e.rng.IntN(len(pool))]
	e.maxTurns = s.MaxTurns
	if e.cfg.MaxTurns > 0 {
		e.maxTurns = e.cfg.MaxTurns
	}
	e.ep.Start()
	e.revealed = slices.Grow(e.revealed[:0], s.Length)[:s.Length]
	clear(e.revealed)
	e.hidden = s.Length
	e.tried = [26]bool{}
	e.wrong = e.wrong[:0]
	return e.instructions(), envs.Info{envs.InfoMaxTurns: e.maxTurns}, nil
}

func (e *Env) instructions() string {
	n := len(e.secret)
	if e.cfg.Style == envs.StyleBrief {
		return fmt.Sprintf("Hangman: find the %d-letter word in %d turns. Reply \\boxed{letter} or \\boxed{WORD}. Word: %s",
			n, e.maxTurns, e.pattern())
	}
	return fmt.Sprintf("You are playing Hangman. Find the secret %d-letter English word in at most %d turns.\n"+
		"Each turn, guess one letter, e.g. \\boxed{E}, or the whole word, e.g. \\boxed{%s}. "+
		"A correct letter is shown in every spot where it appears; guessing the word ends the game.\n"+
		"Word: %s", n, e.maxTurns, strings.Repeat("W", n), e.pattern())
}

// pattern is the word as the player sees it: "C _ T".
func (e *Env) pattern() string {
	b := make([]byte, 0, 2*len(e.secret))
	for i := 0; i < len(e.secret); i++ {
		if i > 0 {
			b = append(b, ' ')
		}
		if e.revealed[i] {
			b = append(b, e.secret[i]-'a'+'A')
		} else {
			b = append(b, '_')
		}
	}
	return string(b)
}

// SampleAction returns a boxed letter not yet tried, or (one time in ten,
// and when every letter was tried) a boxed word of the secret's length.
// With Config.SampleConsistent it plays as sampleConsistent says, with
// Config.SampleMode as sampleMode says (r unread).
func (e *Env) SampleAction(r *rand.Rand) string {
	if e.cfg.SampleMode && len(e.secret) > 0 {
		return e.sampleMode()
	}
	if e.cfg.SampleConsistent && len(e.secret) > 0 {
		return e.sampleConsistent(r)
	}
	if n := len(e.secret); n > 0 && r.IntN(10) == 0 {
		pool := e.list.OfLength(n)
		return envs.Boxed(strings.ToUpper(pool[r.IntN(len(pool))]))
	}
	var left [26]byte
	k := 0
	for c := range byte(26) {
		if !e.tried[c] {
			left[k] = 'A' + c
			k++
		}
	}
	if k == 0 {
		return envs.Boxed(strings.ToUpper(e.secret))
	}
	return envs.Boxed(string(left[r.IntN(k)]))
}

// Step plays one guess: a letter or a word.
func (e *Env) Step(action string) (envs.Step, error) {
	info, err := e.ep.Begin()
	if err != nil {
		return envs.Step{}, err
	}
	g, ok := words.FromBoxed(action)
	if !ok {
		e.ep.Active = false
		return gamekit.FormatError(info, "Format error: no guess found. Reply with one letter or the whole word in \\boxed{}."), nil
	}
	var st envs.Step
	var why string
	if len(g) == 1 {
		st, why = e.letter(g[0])
	} else {
		st, why = e.word(g)
	}
	st.Info = info
	if why != "" {
		info[envs.InfoInvalid] = true
		st.Obs = why
	}
	if st.Terminated {
		info[envs.InfoSuccess] = true
		e.ep.Active = false
		st.Obs += fmt.Sprintf(" Solved: %s.", strings.ToUpper(e.secret))
		return st, nil
	}
	if e.ep.Turn >= e.maxTurns {
		st.Truncated = true
		info[envs.InfoSuccess] = false
		e.ep.Active = false
		st.Obs += fmt.Sprintf(" Out of turns: the word was %s.", strings.ToUpper(e.secret))
		return st, nil
	}
	e.sb.Reset()
	e.sb.WriteString(st.Obs)
	e.sb.WriteString(" Word: ")
	e.sb.WriteString(e.pattern())
	fmt.Fprintf(&e.sb, ". %d turns left.", e.maxTurns-e.ep.Turn)
	if e.cfg.ShowTried {
		e.writeTried()
	}
	st.Obs = e.sb.String()
	return st, nil
}

// letter plays a letter guess; why is set when the move is invalid.
func (e *Env) letter(c byte) (st envs.Step, why string) {
	up := string(c - 'a' + 'A')
	if e.tried[c-'a'] {
		return st, fmt.Sprintf("Invalid: %s was already guessed.", up)
	}
	e.tried[c-'a'] = true
	newly := 0
	for i := 0; i < len(e.secret); i++ {
		if e.secret[i] == c && !e.revealed[i] {
			e.revealed[i] = true
			newly++
		}
	}
	if newly == 0 {
		st.Obs = fmt.Sprintf("No %s in the word.", up)
		return st, ""
	}
	e.hidden -= newly
	st.Reward = 0.5 * float64(newly) / float64(len(e.secret))
	st.Obs = fmt.Sprintf("%s appears %d time(s).", up, newly)
	if e.hidden == 0 {
		st.Reward += 0.5
		st.Terminated = true
	}
	return st, ""
}

// word plays a whole-word guess; why is set when the move is invalid.
func (e *Env) word(g string) (st envs.Step, why string) {
	n := len(e.secret)
	switch {
	case len(g) != n:
		if len(g) > 12 {
			return st, fmt.Sprintf("Invalid: that guess has %d letters, the word has %d.", len(g), n)
		}
		return st, fmt.Sprintf("Invalid: %s has %d letters, the word has %d.", strings.ToUpper(g), len(g), n)
	case slices.Contains(e.wrong, g):
		return st, fmt.Sprintf("Invalid: %s was already guessed.", strings.ToUpper(g))
	case g != e.secret:
		e.wrong = append(e.wrong, g)
		st.Obs = fmt.Sprintf("%s is not the word.", strings.ToUpper(g))
		return st, ""
	}
	st.Reward = 0.5*float64(e.hidden)/float64(n) + 0.5
	for i := range e.revealed {
		e.revealed[i] = true
	}
	e.hidden = 0
	st.Terminated = true
	st.Obs = "Correct."
	return st, ""
}

// writeTried appends " Tried: A, E, Z." (the letters guessed, in
// alphabetical order) to e.sb, or " Tried: none." before any letter.
func (e *Env) writeTried() {
	e.sb.WriteString(" Tried: ")
	n := 0
	for c := range byte(26) {
		if e.tried[c] {
			if n > 0 {
				e.sb.WriteString(", ")
			}
			e.sb.WriteByte('A' + c)
			n++
		}
	}
	if n == 0 {
		e.sb.WriteString("none")
	}
	e.sb.WriteByte('.')
}
