package task

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/gemgo/gemgo/envs"
)

// Info keys reported by every single-turn task.
const (
	// InfoCorrect (bool) is true on the step whose answer scored 1.
	InfoCorrect = "correct"
	// InfoScore (float64) is the answer's score in [0, 1] (0 on a format error).
	InfoScore = "score"
	// InfoAnswer (string) is the reference answer, revealed after the step.
	InfoAnswer = "answer"
)

// Problem is one question of a task.
type Problem struct {
	// Question is the task text, without answer-format instructions.
	Question string
	// Answer is a reference answer: as the content of \boxed{...} (or of
	// <answer>...</answer> in FormatAnswerTag), it scores 1.
	Answer string
	// Score grades the answer (the content of the last \boxed{...}, or of
	// the last <answer>...</answer> in FormatAnswerTag) in [0, 1]; 1 means
	// correct. Nil means an exact match with Answer after trimming spaces.
	Score func(answer string) float64
	// Sample draws a random plausible answer (the content, not boxed) of the
	// right kind: a number for a numeric task, a list for a sorting task.
	// Nil means a random whole number in [0, 100).
	Sample func(r *rand.Rand) string
	// Details, when not nil, adds facts about the answer (as Score reads
	// it) to the info of the scored step, say a QA answer's F1.
	Details func(answer string) envs.Info
}

// Generator draws a problem from r. It must be a pure function of r's
// state: the same seed gives the same problem.
type Generator func(r *rand.Rand) Problem

// Config describes one single-turn env.
type Config struct {
	// Description is the one-line description returned by Description.
	Description string
	// Generate draws the problem of each episode from the env's random
	// source. Exactly one of Generate and Index is set.
	Generate Generator
	// Index picks the problem of seed directly (a dataset: item seed mod n,
	// so that seeds 0..n-1 visit every item once).
	Index func(seed uint64) Problem
	// Style is the instruction style; zero means envs.StyleGEM.
	Style envs.Style
	// FormatPenalty is subtracted from 0 on a format error (the reward is
	// -FormatPenalty). Use DefaultFormatPenalty for GEM's -0.1.
	FormatPenalty float64
	// Hint, when not empty, is added to gem-style instructions to say what
	// form the answer takes ("Give the sorted numbers separated by commas.").
	Hint string
	// Format is where the answer is read from: FormatBoxed (the zero
	// value: the last \boxed{...}) or FormatAnswerTag (the last
	// <answer>...</answer>). The instructions name it.
	Format AnswerFormat
	// Corpus, when not empty, names the search corpus that holds the
	// answers (the shipped fictional worlds' "fictional", "fictional-v1", ...);
	// SearchCorpus reports it, and a search tool without a corpus of its
	// own searches it (tools.Wrap).
	Corpus string
}

// DefaultFormatPenalty is the format-error penalty of GEM (reward -0.1).
const DefaultFormatPenalty = -envs.RewardFormatError

// ReadCommon reads the options every single-turn task accepts: "style"
// ("gem" or "brief") and "format_penalty" (in [0, 1], default 0.1; 0
// disables the penalty).
func ReadCommon(o *envs.Options) (style envs.Style, formatPenalty float64) {
	style = o.Style()
	formatPenalty = o.Float("format_penalty", DefaultFormatPenalty, 0, 1)
	return style, formatPenalty
}

// AnswerFormat is where a single-turn task reads the answer of a response.
type AnswerFormat string

// The answer formats of option "answer_format".
const (
	// FormatBoxed reads the content of the last \boxed{...} (envs.LastBoxed).
	FormatBoxed AnswerFormat = "boxed"
	// FormatAnswerTag reads the content of the last <answer>...</answer>
	// (envs.LastAnswerTag), the format of GEM's QA envs.
	FormatAnswerTag AnswerFormat = "answer_tag"
)

// ReadAnswerFormat reads option "answer_format": "boxed" (the default) or
// "answer_tag".
func ReadAnswerFormat(o *envs.Options) AnswerFormat {
	return AnswerFormat(o.String("answer_format", string(FormatBoxed), string(FormatBoxed), string(FormatAnswerTag)))
}

// extract returns the answer of action in format f.
func (f AnswerFormat) extract(action string) (string, bool) {
	if f == FormatAnswerTag {
		return envs.LastAnswerTag(action)
	}
	return envs.LastBoxed(action)
}

// wrap writes answer s in format f.
func (f AnswerFormat) wrap(s string) string {
	if f == FormatAnswerTag {
		return envs.AnswerTagged(s)
	}
	return envs.Boxed(s)
}

// where names the format in instructions: "within \boxed{}".
func (f AnswerFormat) where() string {
	if f == FormatAnswerTag {
		return "within <answer></answer> tags"
	}
	return `within \boxed{}`
}

// Env is a single-turn task env. Its zero value is not usable: build it with New.
type Env struct {
	cfg    Config
	rng    *rand.Rand
	prob   Problem
	active bool
}

var (
	_ envs.Env                 = (*Env)(nil)
	_ envs.ActionSampler       = (*Env)(nil)
	_ envs.FormatErrorRewarder = (*Env)(nil)
	_ envs.Describer           = (*Env)(nil)
)

// New returns a single-turn env. It fails when cfg has no generator or an
// out-of-range penalty.
func New(cfg Config) (*Env, error) {
	if (cfg.Generate == nil) == (cfg.Index == nil) {
		return nil, fmt.Errorf("task: config needs exactly one of Generate and Index")
	}
	if cfg.FormatPenalty < 0 || cfg.FormatPenalty > 1 {
		return nil, fmt.Errorf("task: format penalty %g out of range: allowed [0, 1]", cfg.FormatPenalty)
	}
	if cfg.Style == "" {
		cfg.Style = envs.StyleGEM
	}
	switch cfg.Format {
	case "":
		cfg.Format = FormatBoxed
	case FormatBoxed, FormatAnswerTag:
	default:
		return nil, fmt.Errorf("task: answer format %q unknown: allowed %q or %q", cfg.Format, FormatBoxed, FormatAnswerTag)
	}
	return &Env{cfg: cfg, rng: rand.New(rand.NewPCG(0, 0))}, nil
}

// Seeded returns the random source of an episode started with seed.
// Exported so that tests and tools can draw the same problem as Reset.
func Seeded(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
}

// Reset draws the problem of seed and returns the instructions.
func (e *Env) Reset(seed uint64) (string, envs.Info, error) {
	e.rng = Seeded(seed)
	if e.cfg.Index != nil {
		e.prob = e.cfg.Index(seed)
	} else {
		e.prob = e.cfg.Generate(e.rng)
	}
	e.active = true
	return e.Prompt(), envs.Info{envs.InfoTurn: 0, envs.InfoMaxTurns: 1}, nil
}

// Prompt is the observation of the current problem in the env's style.
func (e *Env) Prompt() string {
	q := strings.TrimSpace(e.prob.Question)
	if e.cfg.Style == envs.StyleBrief {
		if q != "" && !strings.ContainsRune(".?!:", rune(q[len(q)-1])) {
			q += "."
		}
		if e.cfg.Format == FormatAnswerTag {
			return q + " Answer in <answer></answer>."
		}
		return q + ` Answer in \boxed{}.`
	}
	var b strings.Builder
	b.WriteString(q)
	b.WriteString("\n")
	if e.cfg.Hint != "" {
		b.WriteString(e.cfg.Hint)
		b.WriteString(" ")
	}
	b.WriteString("Please reason step by step, and put your final answer " + e.cfg.Format.where() + ".")
	return b.String()
}

// Problem returns the problem of the current episode (zero before Reset).
func (e *Env) Problem() Problem { return e.prob }

// Step scores the answer of action (the last \boxed{...}, or the last
// <answer>...</answer> in FormatAnswerTag) and ends the episode.
func (e *Env) Step(action string) (envs.Step, error) {
	if !e.active {
		return envs.Step{}, envs.ErrNotReset
	}
	e.active = false
	info := envs.Info{envs.InfoTurn: 1, InfoAnswer: e.prob.Answer}
	content, ok := e.cfg.Format.extract(action)
	if !ok {
		info[envs.InfoFormatError] = true
		info[InfoCorrect] = false
		info[envs.InfoSuccess] = false
		info[InfoScore] = 0.0
		return envs.Step{
			Obs:        e.formatErrorObs(),
			Reward:     e.FormatErrorReward(),
			Terminated: true,
			Info:       info,
		}, nil
	}
	score := e.score(content)
	correct := score >= 1
	if e.prob.Details != nil {
		for k, v := range e.prob.Details(content) {
			info[k] = v
		}
	}
	info[InfoCorrect] = correct
	info[envs.InfoSuccess] = correct
	info[InfoScore] = score
	obs := "Correct."
	if !correct {
		obs = fmt.Sprintf("Incorrect. The answer is %s.", e.prob.Answer)
	}
	return envs.Step{Obs: obs, Reward: score, Terminated: true, Info: info}, nil
}

func (e *Env) score(content string) float64 {
	var s float64
	if e.prob.Score == nil {
		if strings.TrimSpace(content) == strings.TrimSpace(e.prob.Answer) {
			s = 1
		}
	} else {
		s = e.prob.Score(content)
	}
	if !(s > 0) { // also catches NaN
		return 0
	}
	return min(s, 1)
}

func (e *Env) formatErrorObs() string {
	if e.cfg.Format == FormatAnswerTag {
		return "Format error: no <answer></answer> answer found. Put your final answer within <answer></answer> tags."
	}
	return `Format error: no \boxed{} answer found. Put your final answer within \boxed{}.`
}

// FormatErrorReward is the reward of an answer with no \boxed{}.
func (e *Env) FormatErrorReward() float64 {
	if e.cfg.FormatPenalty == 0 {
		return 0 // not -0
	}
	return -e.cfg.FormatPenalty
}

// SampleAction returns a random answer of the right kind for the current
// problem (a whole number before the first Reset), boxed or tagged as the
// env's format asks. It always parses.
func (e *Env) SampleAction(r *rand.Rand) string {
	if e.prob.Sample == nil {
		return e.cfg.Format.wrap(fmt.Sprint(r.IntN(100)))
	}
	return e.cfg.Format.wrap(e.prob.Sample(r))
}

// Description returns the env's one-line description.
func (e *Env) Description() string { return e.cfg.Description }

// SearchCorpus returns Config.Corpus: the search corpus of the task's
// answers, "" when it names none.
func (e *Env) SearchCorpus() string { return e.cfg.Corpus }
