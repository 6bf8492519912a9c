package mathtask

import (
	"fmt"
	"strings"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/task"
)

const hint = "Give the final answer as a number."

type procedural struct {
	id, desc string
	build    func(o *envs.Options) task.Generator
}

var proceduralTasks = []procedural{
	{"math:Arithmetic-v0", "evaluate an expression with + - * / and parentheses (exact, fractions allowed); knobs terms [2,6], max_value [2,100], division", buildArithmetic},
	{"math:Algebra-v0", "solve a linear equation a x + b = c x + d; knobs max_value [1,100], fractions (rational solutions)", buildAlgebra},
	{"math:Fractions-v0", "add, subtract, multiply or divide two fractions (any equal form accepted); knob max_denominator [2,100]", buildFractions},
	{"math:Percentages-v0", "percent of a number, percent of a whole, price increase/decrease", buildPercentages},
	{"math:Products-v0", "the exact product of a 4-digit and a 3-digit number (knobs digits_a, digits_b in [1,9]; partial_credit pays digits right in place, below a solve): more digits than a small model computes, one call of the Python tool", buildProducts},
	{"math:WordProblems-v0", "grade-school word problems from 10 templates (change, speed, ages, sharing, area, ...)", buildWordProblems},
}

// loadHook, when not nil, is called on every parse of a math:jsonl file
// (set only by tests, to count parses).
var loadHook func()

// Register adds the math family to r: the procedural ids above, math:sample
// (a small built-in GSM8K-style set) and math:jsonl (any JSONL file, option
// path, fields question_field and answer_field; parsed once per process and
// file, task.LoadShared). Every id takes style, format_penalty and
// answer_format (boxed or answer_tag).
func Register(r *envs.Registry) error {
	for _, p := range proceduralTasks {
		p := p
		err := r.RegisterDesc(p.id, p.desc, func(o *envs.Options) (envs.Env, error) {
			style, penalty := task.ReadCommon(o)
			return task.New(task.Config{
				Description: p.desc, Generate: p.build(o), Style: style, FormatPenalty: penalty, Hint: hint,
				Format: task.ReadAnswerFormat(o),
			})
		})
		if err != nil {
			return fmt.Errorf("math: %w", err)
		}
	}
	const sampleDesc = "16 grade-school word problems written for gemgo (GSM8K format); seed mod 16 picks the problem"
	if err := r.RegisterDesc("math:sample", sampleDesc, func(o *envs.Options) (envs.Env, error) {
		style, penalty := task.ReadCommon(o)
		format := task.ReadAnswerFormat(o)
		recs, err := task.ReadJSONL(strings.NewReader(sampleJSONL), "math sample")
		if err != nil {
			return nil, err
		}
		items, err := LoadItems(recs, "math sample", "question", "answer")
		if err != nil {
			return nil, err
		}
		return task.New(task.Config{Description: sampleDesc, Index: datasetIndex(items), Style: style, FormatPenalty: penalty, Hint: hint, Format: format})
	}); err != nil {
		return fmt.Errorf("math: %w", err)
	}
	const jsonlDesc = "math problems from a JSONL file (option path; fields question_field, answer_field; GSM8K '#### 42' answers); seed mod n picks the problem"
	if err := r.RegisterDesc("math:jsonl", jsonlDesc, func(o *envs.Options) (envs.Env, error) {
		style, penalty := task.ReadCommon(o)
		format := task.ReadAnswerFormat(o)
		path := o.ServerOnly("names a file on the server").String("path", "")
		qf := o.Content().String("question_field", "question")
		af := o.Content().String("answer_field", "answer")
		if path == "" {
			o.Failf(`option path is required: a JSONL file with one {"%s": ..., "%s": ...} object per line`, qf, af)
			return nil, nil
		}
		items, err := task.LoadShared(path, "math question="+qf+" answer="+af, func(recs []task.Record, name string) ([]Item, error) {
			if loadHook != nil {
				loadHook()
			}
			return LoadItems(recs, name, qf, af)
		}, nil)
		if err != nil {
			return nil, err
		}
		return task.New(task.Config{Description: jsonlDesc, Index: sharedIndex(items), Style: style, FormatPenalty: penalty, Hint: hint, Format: format})
	}); err != nil {
		return fmt.Errorf("math: %w", err)
	}
	return nil
}
