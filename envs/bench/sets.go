package bench

import (
	"fmt"
	"slices"
	"strings"
)

// Kind is how a set is graded.
type Kind int

const (
	// Math sets are graded by mathtask.Equivalent.
	Math Kind = iota
	// QA sets are graded by qa.ExactMatch.
	QA
)

// Set describes one benchmark: its import name, its env id, where its
// public copies live, its licence and the field names those copies use.
type Set struct {
	// Name is the import name (-set) and the file stem in the data directory.
	Name string
	// ID is the registered env id.
	ID string
	// Kind is how answers are graded.
	Kind Kind
	// Source names the public copies (GEM reads the first one named).
	Source string
	// Licence is the licence the source states for the data.
	Licence string
	// QuestionFields are the field names tried in order for the question.
	QuestionFields []string
	// AnswerFields are the field names tried in order for the answer(s).
	AnswerFields []string
	// GSM8K marks answers written "reasoning #### 42": the part after the
	// last "####" is kept.
	GSM8K bool
}

var (
	mathQuestion = []string{"problem", "question"}
	mathAnswer   = []string{"answer", "final_answer", "expected_answer"}
	qaQuestion   = []string{"question", "problem"}
	qaAnswer     = []string{"answer", "answers", "golden_answers"}
	maaLicence   = "problems © Mathematical Association of America; no open licence stated"
)

// sets are GEM's evaluation benchmarks (gem/envs/__init__.py registers the
// eval ids; GSM8K is its math:GSM8K, kept here as an eval set).
var sets = []Set{
	{Name: "gsm8k", ID: "eval:GSM8K", Kind: Math, Source: "openai/gsm8k test split (1,319 items), axon-rl/GSM-8k", Licence: "MIT", QuestionFields: mathQuestion, AnswerFields: mathAnswer, GSM8K: true},
	{Name: "math500", ID: "eval:MATH500", Kind: Math, Source: "axon-rl/math-eval split math, HuggingFaceH4/MATH-500 (500 items)", Licence: "MIT (the MATH dataset)", QuestionFields: mathQuestion, AnswerFields: mathAnswer},
	{Name: "aime24", ID: "eval:AIME24", Kind: Math, Source: "axon-rl/math-eval split aime24 (30 items)", Licence: maaLicence, QuestionFields: mathQuestion, AnswerFields: mathAnswer},
	{Name: "amc", ID: "eval:AMC", Kind: Math, Source: "axon-rl/math-eval split amc", Licence: maaLicence, QuestionFields: mathQuestion, AnswerFields: mathAnswer},
	{Name: "olympiadbench", ID: "eval:OlympiadBench", Kind: Math, Source: "axon-rl/math-eval split olympiad_bench", Licence: "Apache-2.0 (OlympiadBench)", QuestionFields: mathQuestion, AnswerFields: mathAnswer},
	{Name: "minerva", ID: "eval:Minerva", Kind: Math, Source: "axon-rl/math-eval split minerva (Minerva's OCW courses set)", Licence: "CC BY-NC-SA 4.0 (MIT OpenCourseWare)", QuestionFields: mathQuestion, AnswerFields: mathAnswer},
	{Name: "qaopen", ID: "eval:QaOpen", Kind: QA, Source: "google-research-datasets/nq_open validation split (3,610 items)", Licence: "CC BY-SA 3.0 (Natural Questions)", QuestionFields: qaQuestion, AnswerFields: qaAnswer},
	{Name: "hotpotqa", ID: "eval:HotpotQA", Kind: QA, Source: "axon-rl/search-eval split hotpotqa (512 items)", Licence: "CC BY-SA 4.0", QuestionFields: qaQuestion, AnswerFields: qaAnswer},
	{Name: "2wiki", ID: "eval:2Wiki", Kind: QA, Source: "axon-rl/search-eval split 2wiki (512 items, 2WikiMultihopQA)", Licence: "Apache-2.0", QuestionFields: qaQuestion, AnswerFields: qaAnswer},
	{Name: "popqa", ID: "eval:PopQA", Kind: QA, Source: "axon-rl/search-eval split popqa (512 items)", Licence: "MIT", QuestionFields: qaQuestion, AnswerFields: qaAnswer},
	{Name: "triviaqa", ID: "eval:TriviaQA", Kind: QA, Source: "axon-rl/search-eval split tq (512 items)", Licence: "Apache-2.0", QuestionFields: qaQuestion, AnswerFields: qaAnswer},
	{Name: "bamboogle", ID: "eval:Bamboogle", Kind: QA, Source: "axon-rl/search-eval split bamboogle (125 items)", Licence: "MIT (the self-ask repository)", QuestionFields: qaQuestion, AnswerFields: qaAnswer},
	{Name: "nq", ID: "eval:NaturalQuestions", Kind: QA, Source: "axon-rl/search-eval split nq (512 items)", Licence: "CC BY-SA 3.0", QuestionFields: qaQuestion, AnswerFields: qaAnswer},
	{Name: "musique", ID: "eval:Musique", Kind: QA, Source: "axon-rl/search-eval split musique (512 items)", Licence: "CC BY 4.0", QuestionFields: qaQuestion, AnswerFields: qaAnswer},
}

// Sets returns every benchmark, in registration order.
func Sets() []Set { return slices.Clone(sets) }

// Lookup returns the set with import name name (case-insensitive) or id.
func Lookup(name string) (Set, error) {
	for _, s := range sets {
		if strings.EqualFold(s.Name, name) || s.ID == name {
			return s, nil
		}
	}
	names := make([]string, len(sets))
	for i, s := range sets {
		names[i] = s.Name
	}
	return Set{}, fmt.Errorf("unknown benchmark %q: allowed %s", name, strings.Join(names, ", "))
}
