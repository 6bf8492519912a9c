package logic

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/task"
)

// InfoDepth (int) is the step info key of the problem's depth.
const InfoDepth = "depth"

// Question writes the problem as the env shows it: the facts, the rules,
// and the statement to judge.
func (p Problem) Question(r *rand.Rand) string {
	var b strings.Builder
	sep := func() { // one space between sentences, none at the line's end
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
	}
	for _, f := range p.Theory.Facts {
		sep()
		b.WriteString(f.String())
		b.WriteByte('.')
	}
	for _, ru := range p.Theory.Rules {
		sep()
		b.WriteString(ru.Sentence(r.IntN(3)))
	}
	fmt.Fprintf(&b, "\nUnder the closed-world assumption (what cannot be derived is false), is this statement True or False? %s.", p.Query)
	return b.String()
}

// ParseAnswer reads True/False (also yes/no, case-insensitive, surrounding
// punctuation ignored). ok is false for anything else.
func ParseAnswer(s string) (value, ok bool) {
	s = strings.ToLower(strings.Trim(strings.TrimSpace(s), ".!\"'`*()[]{} \\"))
	s = strings.TrimPrefix(s, "text{")
	switch s {
	case "true", "yes", "t":
		return true, true
	case "false", "no", "f":
		return false, true
	}
	return false, false
}

func label(b bool) string {
	if b {
		return "True"
	}
	return "False"
}

// generator makes problems of a fixed depth, or of a depth drawn per
// episode when depth < 0.
func generator(depth, entities, distractors int) task.Generator {
	return func(r *rand.Rand) task.Problem {
		d := depth
		if d < 0 {
			d = r.IntN(MaxDepth + 1)
		}
		p := Generate(r, Params{Depth: d, Entities: entities, Distractor: distractors})
		want := p.Label
		return task.Problem{
			Question: p.Question(r),
			Answer:   label(want),
			Score: func(a string) float64 {
				if v, ok := ParseAnswer(a); ok && v == want {
					return 1
				}
				return 0
			},
			Sample:  func(r *rand.Rand) string { return label(r.IntN(2) == 0) },
			Details: func(string) envs.Info { return envs.Info{InfoDepth: d} },
		}
	}
}

// Register adds logic:RuleTaker-v0-d0 ... -d5 and -random to r. Options:
// entities [2,8] (default 3), distractors [0,8] (default 3), plus style,
// format_penalty and answer_format (boxed or answer_tag).
func Register(r *envs.Registry) error {
	for d := -1; d <= MaxDepth; d++ {
		id := fmt.Sprintf("logic:RuleTaker-v0-d%d", d)
		desc := fmt.Sprintf("RuleTaker-style facts and rules; is the statement True or False (closed world)? proof depth %d", d)
		if d < 0 {
			id = "logic:RuleTaker-v0-random"
			desc = "RuleTaker-style facts and rules; is the statement True or False (closed world)? depth 0-5 drawn per episode"
		}
		depth := d
		err := r.RegisterDesc(id, desc, func(o *envs.Options) (envs.Env, error) {
			style, penalty := task.ReadCommon(o)
			ents := o.Int("entities", 3, 2, len(names))
			dis := o.Int("distractors", 3, 0, 8)
			return task.New(task.Config{
				Description: desc, Generate: generator(depth, ents, dis), Style: style, FormatPenalty: penalty,
				Hint: `Answer True or False.`, Format: task.ReadAnswerFormat(o),
			})
		})
		if err != nil {
			return fmt.Errorf("logic: %w", err)
		}
	}
	return nil
}
