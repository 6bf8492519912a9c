package mcptask

import (
	"encoding/json"
	"errors"
	"maps"
	"math/rand/v2"
	"slices"

	"github.com/gemgo/gemgo/envs"
)

// callText writes a call in the text protocol; its arguments are JSON
// with "<" escaped, so that no value can close a tag.
func callText(tool string, args map[string]any) string {
	if args == nil {
		args = map[string]any{}
	}
	b, _ := json.Marshal(args) // validate checked that it marshals
	return "<tool_call><tool_name>" + tool + "</tool_name><arguments>" + string(b) + "</arguments></tool_call>"
}

// SolutionActions returns the reference solution of the current
// episode's task as replies: each call, then the final answer. It is nil
// before the first Reset.
func (e *Env) SolutionActions() []string {
	if e.cur == nil {
		return nil
	}
	out := make([]string, 0, len(e.cur.Spec.Solution)+1)
	for _, c := range e.cur.Spec.Solution {
		out = append(out, callText(c.Tool, c.Arguments))
	}
	return append(out, e.cur.Spec.Answer)
}

// NewSolver returns the solver of the episode e was last reset to: it
// replays the task's reference solution, which is how cmd/eval's oracle
// plays an mcp task.
func (e *Env) NewSolver() envs.Solver { return &Solver{actions: e.SolutionActions()} }

// Solver replays a task's reference solution, one reply a turn.
type Solver struct{ actions []string }

// Act returns the next reply of the reference solution; it fails once
// they are all played (the last one, the answer, ends the episode).
func (s *Solver) Act(string) (string, error) {
	if len(s.actions) == 0 {
		return "", errors.New("mcp task: the reference solution has no more replies (it ended with its answer)")
	}
	a := s.actions[0]
	s.actions = s.actions[1:]
	return a, nil
}

// SampleAction returns a call of a random tool with arguments of the
// types its schema names, strings drawn from plausible values of the
// service (paths of the task's files, small queries), or a final answer
// (1 in 10). Call it after Reset. It never calls get_file_info, whose
// answer holds the files' times, so that an episode's transcript depends
// only on its seed.
func (e *Env) SampleAction(r *rand.Rand) string {
	if len(e.funcs) == 0 || r.IntN(10) == 0 {
		return "Done."
	}
	f := e.funcs[r.IntN(len(e.funcs))]
	if f.Name == "get_file_info" { // its times differ from one run to the next
		f = e.funcs[0]
	}
	words := []string{"/files", "notes", "x"}
	if e.cur != nil && e.service == ServiceFiles {
		for _, name := range slices.Sorted(maps.Keys(e.cur.Files)) {
			words = append(words, "/files/"+name)
		}
	}
	if e.service == ServicePostgres {
		words = []string{"SELECT 1", "SELECT count(*) FROM information_schema.tables", "public", "x"}
	}
	args := map[string]any{}
	props, _ := f.Parameters["properties"].(map[string]any)
	for _, name := range slices.Sorted(maps.Keys(props)) {
		p, _ := props[name].(map[string]any)
		switch p["type"] {
		case "number", "integer":
			args[name] = r.IntN(5) + 1
		case "boolean":
			args[name] = r.IntN(2) == 0
		case "array":
			args[name] = []any{words[r.IntN(len(words))]}
		default:
			args[name] = words[r.IntN(len(words))]
		}
	}
	return callText(f.Name, args)
}
