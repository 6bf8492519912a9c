package mathtask

import (
	_ "embed"
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/gemgo/gemgo/envs/task"
)

//go:embed data/sample.jsonl
var sampleJSONL string

// Item is one dataset problem.
type Item struct {
	Question string
	// Answer is the final answer: for a GSM8K-style answer ("reasoning
	// #### 42") the part after the last "####".
	Answer string
}

// FinalAnswer returns the part of a GSM8K-style answer after the last "####"
// (trimmed), or the whole answer when it has none.
func FinalAnswer(s string) string {
	if i := strings.LastIndex(s, "####"); i >= 0 {
		s = s[i+4:]
	}
	return strings.TrimSpace(s)
}

// LoadItems reads question/answer pairs from JSONL records; name (the file)
// and the line number are named in every error.
func LoadItems(recs []task.Record, name, questionField, answerField string) ([]Item, error) {
	items := make([]Item, 0, len(recs))
	for _, rec := range recs {
		q, err := rec.String(name, questionField)
		if err != nil {
			return nil, err
		}
		a, err := rec.String(name, answerField)
		if err != nil {
			return nil, err
		}
		final := FinalAnswer(a)
		if final == "" {
			return nil, fmt.Errorf("%s:%d: field %q has nothing after \"####\"", name, rec.Line, answerField)
		}
		items = append(items, Item{Question: q, Answer: final})
	}
	return items, nil
}

// datasetIndex returns the task.Config Index of items: item seed mod n.
func datasetIndex(items []Item) func(seed uint64) task.Problem {
	return sharedIndex(task.NewItems(items, nil))
}

// sharedIndex is datasetIndex over a read-only list shared between envs.
func sharedIndex(items *task.Items[Item]) func(seed uint64) task.Problem {
	return func(seed uint64) task.Problem {
		it := items.At(int(seed % uint64(items.Len())))
		return task.Problem{
			Question: it.Question, Answer: it.Answer, Score: check(it.Answer),
			Sample: func(r *rand.Rand) string { return sampleNumber(r) },
		}
	}
}
