package bench

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/mathtask"
	"github.com/gemgo/gemgo/envs/qa"
	"github.com/gemgo/gemgo/envs/task"
)

// DataEnv is the environment variable that names the data directory when
// option data_dir is not set.
const DataEnv = "GEMGO_DATA"

// DefaultDataDir returns the data directory: $GEMGO_DATA when set, else
// gemgo/data under os.UserCacheDir.
func DefaultDataDir() (string, error) {
	if d := os.Getenv(DataEnv); d != "" {
		return d, nil
	}
	c, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no data directory: %w (set %s or pass -data)", err, DataEnv)
	}
	return filepath.Join(c, "gemgo", "data"), nil
}

// item is one line of an imported set: {"question": ..., "answers": [...]}.
type item struct {
	Question string   `json:"question"`
	Answers  []string `json:"answers"`
}

// DataPath returns the imported file of set s in dir.
func DataPath(dir string, s Set) string { return filepath.Join(dir, s.Name+".jsonl") }

// ProvenancePath returns the provenance file (the importer's record of
// the source file, its SHA-256 and licence) of set s in dir.
func ProvenancePath(dir string, s Set) string { return filepath.Join(dir, s.Name+".source.json") }

// ImportCommand returns the command that imports set s into dir.
func ImportCommand(s Set, dir string) string {
	d := dir
	if strings.ContainsAny(d, " \t'\"$\\") {
		d = "'" + strings.ReplaceAll(d, "'", `'\''`) + "'"
	}
	return fmt.Sprintf("go run ./cmd/data -set %s -in FILE -data %s", s.Name, d)
}

// Env is an eval env: a task.Env over an imported set that reports the
// set's size (Len) and has a solver that answers with the reference.
type Env struct {
	inner  *task.Env
	n      int
	format task.AnswerFormat
}

var (
	_ envs.Env                 = (*Env)(nil)
	_ envs.ActionSampler       = (*Env)(nil)
	_ envs.FormatErrorRewarder = (*Env)(nil)
	_ envs.Describer           = (*Env)(nil)
	_ envs.SolverMaker         = (*Env)(nil)
)

// Reset starts the episode of item seed mod Len().
func (e *Env) Reset(seed uint64) (string, envs.Info, error) { return e.inner.Reset(seed) }

// Step grades the answer and ends the episode.
func (e *Env) Step(action string) (envs.Step, error) { return e.inner.Step(action) }

// SampleAction returns a random answer in the env's format.
func (e *Env) SampleAction(r *rand.Rand) string { return e.inner.SampleAction(r) }

// FormatErrorReward is the reward of an answer in no format.
func (e *Env) FormatErrorReward() float64 { return e.inner.FormatErrorReward() }

// Description returns the env's one-line description.
func (e *Env) Description() string { return e.inner.Description() }

// Len returns the number of items: seeds 0..Len()-1 play each once, in
// file order.
func (e *Env) Len() int { return e.n }

// NewSolver returns the reference solver of the episode last reset.
func (e *Env) NewSolver() envs.Solver { return NewSolver(e) }

// Solver answers with the current item's first reference answer, boxed or
// tagged as the env reads it: the ceiling a grader allows (1.000 on a set
// whose references all grade as themselves).
type Solver struct{ answer string }

// NewSolver returns the solver of e's current episode.
func NewSolver(e *Env) *Solver {
	a := e.inner.Problem().Answer
	if e.format == task.FormatAnswerTag {
		return &Solver{envs.AnswerTagged(a)}
	}
	return &Solver{envs.Boxed(a)}
}

// Act answers with the reference answer.
func (s *Solver) Act(string) (string, error) {
	if s.answer == "" {
		return "", errors.New("bench: no episode: reset the env before making its solver")
	}
	return s.answer, nil
}

// Register adds every eval id (Sets) to r. Each takes data_dir (the
// operator's: it names a directory on the server), style, format_penalty
// and answer_format (default boxed for math sets, answer_tag for QA sets).
func Register(r *envs.Registry) error {
	for _, s := range sets {
		s := s
		if err := r.RegisterDesc(s.ID, describe(s), func(o *envs.Options) (envs.Env, error) { return makeEnv(o, s) }); err != nil {
			return fmt.Errorf("bench: %w", err)
		}
	}
	return nil
}

func describe(s Set) string {
	grade := "graded by mathtask.Equivalent, \\boxed{} answers"
	if s.Kind == QA {
		grade = "exact match after SQuAD normalisation, <answer></answer> answers"
	}
	return fmt.Sprintf("%s (%s; licence %s), imported with cmd/data; %s; seed i plays item i mod n", s.Name, s.Source, s.Licence, grade)
}

func makeEnv(o *envs.Options, s Set) (envs.Env, error) {
	dir := o.ServerOnly("names a directory on the server").String("data_dir", "")
	style, penalty := task.ReadCommon(o)
	def := task.FormatBoxed
	if s.Kind == QA {
		def = task.FormatAnswerTag
	}
	format := task.AnswerFormat(o.String("answer_format", string(def), string(task.FormatBoxed), string(task.FormatAnswerTag)))
	if o.Err() != nil {
		return nil, nil // the registry reports the option error
	}
	if dir == "" {
		d, err := DefaultDataDir()
		if err != nil {
			return nil, err
		}
		dir = d
	}
	path := DataPath(dir, s)
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%s is not imported (no %s): gemgo ships no benchmark data; import the public copy you have (%s) with: %s", s.ID, path, s.Source, ImportCommand(s, dir))
	}
	items, err := task.LoadShared(path, "bench", loadItems, cloneItem)
	if err != nil {
		return nil, fmt.Errorf("%w (re-import it with: %s)", err, ImportCommand(s, dir))
	}
	hint := "Give the final answer."
	index := mathIndex(items)
	if s.Kind == QA {
		hint, index = "Answer with a short phrase.", qaIndex(items)
	}
	inner, err := task.New(task.Config{Description: describe(s), Index: index, Style: style, FormatPenalty: penalty, Hint: hint, Format: format})
	if err != nil {
		return nil, err
	}
	return &Env{inner: inner, n: items.Len(), format: format}, nil
}

// loadItems reads an imported set.
func loadItems(recs []task.Record, name string) ([]item, error) {
	out := make([]item, 0, len(recs))
	for _, r := range recs {
		q, err := r.String(name, "question")
		if err != nil {
			return nil, err
		}
		as, err := r.Strings(name, "answers")
		if err != nil {
			return nil, err
		}
		out = append(out, item{Question: q, Answers: as})
	}
	return out, nil
}

func cloneItem(it item) item {
	it.Answers = append([]string(nil), it.Answers...)
	return it
}

// mathIndex scores item seed mod n by mathtask.Equivalent against any of
// its answers.
func mathIndex(items *task.Items[item]) func(seed uint64) task.Problem {
	return func(seed uint64) task.Problem {
		it := items.At(int(seed % uint64(items.Len())))
		return task.Problem{
			Question: it.Question, Answer: it.Answers[0],
			Score: func(a string) float64 {
				for _, g := range it.Answers {
					if mathtask.Equivalent(a, g) {
						return 1
					}
				}
				return 0
			},
			Sample: func(r *rand.Rand) string { // another item's answer: plausible, rarely right
				return items.At(r.IntN(items.Len())).Answers[0]
			},
		}
	}
}

// qaIndex scores item seed mod n by qa.ExactMatch, with qa.F1 in the info.
func qaIndex(items *task.Items[item]) func(seed uint64) task.Problem {
	return func(seed uint64) task.Problem {
		it := items.At(int(seed % uint64(items.Len())))
		return task.Problem{
			Question: it.Question, Answer: it.Answers[0],
			Score:   func(a string) float64 { return qa.ExactMatch(a, it.Answers) },
			Details: func(a string) envs.Info { return envs.Info{qa.InfoF1: qa.F1(a, it.Answers)} },
			Sample: func(r *rand.Rand) string {
				o := items.At(r.IntN(items.Len()))
				return o.Answers[r.IntN(len(o.Answers))]
			},
		}
	}
}
