package qa

import (
	_ "embed"
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/task"
)

//go:embed data/sample.jsonl
var sampleJSONL string

// InfoF1 (float64) is the step info key of the answer's token F1.
const InfoF1 = "f1"

// Item is one question with its accepted answers.
type Item struct {
	Question string
	Answers  []string
}

// LoadItems reads items from JSONL records; name (the file) and the line
// number are named in every error.
func LoadItems(recs []task.Record, name, questionField, answersField string) ([]Item, error) {
	items := make([]Item, 0, len(recs))
	for _, rec := range recs {
		q, err := rec.String(name, questionField)
		if err != nil {
			return nil, err
		}
		as, err := rec.Strings(name, answersField)
		if err != nil {
			return nil, err
		}
		items = append(items, Item{Question: q, Answers: as})
	}
	return items, nil
}

// SampleItems returns the built-in sample set.
func SampleItems() ([]Item, error) {
	recs, err := task.ReadJSONL(strings.NewReader(sampleJSONL), "qa sample")
	if err != nil {
		return nil, err
	}
	return LoadItems(recs, "qa sample", "question", "answers")
}

// cloneItem copies an item with its own answer list, so that a list of
// items shared between envs (task.Items) hands out copies.
func cloneItem(it Item) Item {
	it.Answers = append([]string(nil), it.Answers...)
	return it
}

// problems returns the Index of items: item seed mod n, scored by exact
// match, with the F1 in the step info. The sampler answers with an accepted
// answer of a random item (a plausible answer, rarely the right one).
func problems(items *task.Items[Item]) func(seed uint64) task.Problem {
	return func(seed uint64) task.Problem {
		it := items.At(int(seed % uint64(items.Len())))
		return task.Problem{
			Question: it.Question,
			Answer:   it.Answers[0],
			Score:    func(a string) float64 { return ExactMatch(a, it.Answers) },
			Details:  func(a string) envs.Info { return envs.Info{InfoF1: F1(a, it.Answers)} },
			Sample: func(r *rand.Rand) string {
				o := items.At(r.IntN(items.Len()))
				return strings.NewReplacer("{", "", "}", "").Replace(o.Answers[r.IntN(len(o.Answers))])
			},
		}
	}
}

const hint = "Answer with a short phrase."

// newEnv makes an env over its own copy of items.
func newEnv(o *envs.Options, desc, corpus string, items []Item) (envs.Env, error) {
	return newSharedEnv(o, desc, corpus, task.NewItems(items, cloneItem))
}

// newSharedEnv makes an env over a read-only list, shared with other envs.
func newSharedEnv(o *envs.Options, desc, corpus string, items *task.Items[Item]) (envs.Env, error) {
	style, penalty := task.ReadCommon(o)
	return task.New(task.Config{
		Description: desc, Index: problems(items), Style: style, FormatPenalty: penalty, Hint: hint, Corpus: corpus,
		Format: task.ReadAnswerFormat(o),
	})
}

// loadHook, when not nil, is called on every parse of a qa:jsonl file
// (set only by tests, to count parses).
var loadHook func()

// Register adds qa:sample, qa:jsonl (parsed once per process and file,
// task.LoadShared) and the fictional worlds' question sets
// (qa:Fictional-v0-onehop, qa:Fictional-v0-twohop and their v1 and v2
// versions) to r. Every id takes style, format_penalty and answer_format
// (boxed or answer_tag: GEM's QA format).
func Register(r *envs.Registry) error {
	const sampleDesc = "32 general-knowledge questions written for gemgo; exact match after SQuAD normalisation, F1 in info"
	if err := r.RegisterDesc("qa:sample", sampleDesc, func(o *envs.Options) (envs.Env, error) {
		items, err := SampleItems()
		if err != nil {
			return nil, err
		}
		return newEnv(o, sampleDesc, "", items)
	}); err != nil {
		return fmt.Errorf("qa: %w", err)
	}
	const jsonlDesc = "questions from a JSONL file (option path; fields question_field, answers_field); exact match, F1 in info"
	if err := r.RegisterDesc("qa:jsonl", jsonlDesc, func(o *envs.Options) (envs.Env, error) {
		path := o.ServerOnly("names a file on the server").String("path", "")
		qf := o.Content().String("question_field", "question")
		af := o.Content().String("answers_field", "answers")
		if path == "" {
			o.Failf(`option path is required: a JSONL file with one {"%s": ..., "%s": [...]} object per line`, qf, af)
			task.ReadCommon(o)
			task.ReadAnswerFormat(o)
			return nil, nil
		}
		items, err := task.LoadShared(path, "qa question="+qf+" answers="+af, func(recs []task.Record, name string) ([]Item, error) {
			if loadHook != nil {
				loadHook()
			}
			return LoadItems(recs, name, qf, af)
		}, cloneItem)
		if err != nil {
			return nil, err
		}
		return newSharedEnv(o, jsonlDesc, "", items)
	}); err != nil {
		return fmt.Errorf("qa: %w", err)
	}
	return registerFictional(r)
}

// fictionalIDs are the registered ids of the fictional world's question
// sets (see fictional.go).
var fictionalIDs = []struct {
	id, desc string
	data     *string
	corpus   string // the search corpus of its world (package corpora)
}{
	{"qa:Fictional-v0-onehop", "270 questions about an invented world whose facts exist only in its corpus (search tool); one document holds each answer; option split: all, train (216) or test (54, about entities no training question names)", &fictionalOneHop, "fictional"},
	{"qa:Fictional-v0-twohop", "135 questions about an invented world (search tool); the answer needs two documents, the second named in the first; option split: all, train (108) or test (27)", &fictionalTwoHop, "fictional"},
	{"qa:Fictional-v1-onehop", "1,500 questions about a larger invented world with names written as hyphenated syllables (search tool; its corpus is fictional-v1); one document holds each answer; option split: all, train (1,200) or test (300, about entities no training question names)", &fictionalV1OneHop, "fictional-v1"},
	{"qa:Fictional-v1-twohop", "750 questions about the larger invented world (search tool; its corpus is fictional-v1); the answer needs two documents, the second named in the first; option split: all, train (600) or test (150)", &fictionalV1TwoHop, "fictional-v1"},
	{"qa:Fictional-v2-onehop", "1,500 questions about a larger invented world whose names pair known parts (a given and a family name, a firm word and a kind; search tool; its corpus is fictional-v2); one document holds each answer; option split: all, train (1,200) or test (300, about entities no training question names, each a new pairing of known parts)", &fictionalV2OneHop, "fictional-v2"},
	{"qa:Fictional-v2-twohop", "750 questions about the v2 world (search tool; its corpus is fictional-v2); the answer needs two documents, the second named in the first; option split: all, train (600) or test (150)", &fictionalV2TwoHop, "fictional-v2"},
}

func registerFictional(r *envs.Registry) error {
	for _, f := range fictionalIDs {
		f := f
		if err := r.RegisterDesc(f.id, f.desc, func(o *envs.Options) (envs.Env, error) {
			split := o.String("split", "all", "all", "train", "test")
			recs, err := task.ReadJSONL(strings.NewReader(*f.data), f.id)
			if err != nil {
				return nil, err
			}
			if recs, err = splitRecords(recs, f.id, split); err != nil {
				return nil, err
			}
			items, err := LoadItems(recs, f.id, "question", "answers")
			if err != nil {
				return nil, err
			}
			return newEnv(o, f.desc, f.corpus, items)
		}); err != nil {
			return fmt.Errorf("qa: %w", err)
		}
	}
	return nil
}

// splitRecords keeps the records of one split ("train" or "test", each
// record's split field); "all" keeps every record.
func splitRecords(recs []task.Record, name, split string) ([]task.Record, error) {
	if split == "all" {
		return recs, nil
	}
	var kept []task.Record
	for _, rec := range recs {
		s, err := rec.String(name, "split")
		if err != nil {
			return nil, err
		}
		if s == split {
			kept = append(kept, rec)
		}
	}
	return kept, nil
}
