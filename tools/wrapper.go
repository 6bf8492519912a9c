package tools

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/tools/protocol"
)

// Info keys of a tool-wrapped env's steps.
const (
	// InfoUseTool (bool) is true on a step that a tool handled (the inner
	// env did not see the action), false on every other step.
	InfoUseTool = "use_tool"
	// InfoToolType (string) is the kind of tool that handled the step.
	InfoToolType = "tool_type"
	// InfoParsedAction (string) is the action cut just after the call.
	InfoParsedAction = "parsed_action"
	// InfoToolError (string) says why a handled call failed.
	InfoToolError = "tool_error"
	// InfoToolUses (int) counts the calls handled by tools so far in the
	// episode; InfoToolErrors those of them that failed.
	InfoToolUses   = envs.InfoToolUses
	InfoToolErrors = "tool_errors"
	// InfoEnvTurn (int) is the number of steps the inner env has taken
	// (tool steps are not turns of the inner env); envs.InfoTurn counts
	// every step of the wrapped env.
	InfoEnvTurn = "env_turn"
)

// bound is one tool with its settings in a wrapper.
type bound struct {
	tool    Tool
	kind    string
	maxUses int
	reward  float64 // paid per successful call (tool + success reward)
	timeout time.Duration
}

// Env wraps an env with tools, after GEM's ToolEnvWrapper: Reset appends
// the tools' instructions to the observation; Step gives the action to
// the first tool that parses a call from it (while that tool has uses
// left), else to the inner env unchanged. A tool step neither ends the
// episode nor counts as a turn of the inner env, so an episode lasts at
// most the inner env's max_turns plus the tools' max_uses steps (Reset's
// Info[envs.InfoMaxTurns] says so).
//
// Unlike GEM, a call that parses but fails is still the tool's: the model
// sees the tool's error and the inner env never grades the call as an
// answer. Tool rewards are paid only for calls that succeed, and their
// episode sum is capped at MaxToolRewardFraction of envs.RewardSuccess.
type Env struct {
	inner envs.Env
	tools []bound

	uses     []int
	total    int // calls handled this episode
	failed   int
	paid     float64
	steps    int
	envTurns int
	active   bool
	task     string // the inner env's first observation, for SampleAction
	lastTool string // the observation of the last step when it was a tool call, else ""
}

var (
	_ envs.Wrapper             = (*Env)(nil)
	_ envs.ActionSampler       = (*Env)(nil)
	_ envs.FormatErrorRewarder = (*Env)(nil)
	_ envs.Describer           = (*Env)(nil)
	_ io.Closer                = (*Env)(nil)
)

// Wrap builds the tools of specs (fresh ones: an env's tools are its own)
// and wraps env with them. With no specs it returns env unchanged.
func Wrap(env envs.Env, specs []Spec) (envs.Env, error) {
	if len(specs) == 0 {
		return env, nil
	}
	if err := ValidateSpecs(specs); err != nil {
		return nil, err
	}
	specs = withTaskCorpus(env, specs)
	ts := make([]Tool, 0, len(specs))
	closeAll := func() {
		for _, t := range ts {
			if c, ok := t.(io.Closer); ok {
				_ = c.Close()
			}
		}
	}
	for i, s := range specs {
		t, err := New(s)
		if err != nil {
			closeAll()
			return nil, fmt.Errorf("env.tools[%d] (%s): %w", i, s.Name, err)
		}
		ts = append(ts, t)
	}
	w, err := bind(env, specs, ts)
	if err != nil {
		closeAll()
		return nil, err
	}
	return w, nil
}

// CorpusNamer is implemented by envs whose answers are in a known search
// corpus (the qa:Fictional-* worlds name their shipped corpus).
type CorpusNamer interface {
	SearchCorpus() string
}

// withTaskCorpus returns specs with each search tool that names neither a
// corpus nor a retriever URL pointed at the corpus env names, if it names
// one: a qa:Fictional-v1 task searches its own world, not the default.
func withTaskCorpus(env envs.Env, specs []Spec) []Spec {
	n, ok := envs.Unwrapped(env).(CorpusNamer)
	if !ok || n.SearchCorpus() == "" {
		return specs
	}
	out := slices.Clone(specs)
	for i, s := range out {
		if s.Resolved().Name == protocol.KindSearch && s.Corpus == "" && s.URL == "" {
			out[i].Corpus = n.SearchCorpus()
		}
	}
	return out
}

// NewEnv wraps env with tools already built, ts[i] configured by specs[i]
// (its max_uses, rewards and timeout).
func NewEnv(env envs.Env, specs []Spec, ts []Tool) (*Env, error) {
	if err := ValidateSpecs(specs); err != nil {
		return nil, err
	}
	return bind(env, specs, ts)
}

// bind is NewEnv for specs already validated (Wrap checks them before it
// builds the tools).
func bind(env envs.Env, specs []Spec, ts []Tool) (*Env, error) {
	if env == nil {
		return nil, errors.New("tools: nil env")
	}
	if len(specs) != len(ts) || len(ts) == 0 {
		return nil, fmt.Errorf("tools: %d specs for %d tools: want one spec per tool, at least one", len(specs), len(ts))
	}
	w := &Env{inner: env, uses: make([]int, len(ts))}
	for i, s := range specs {
		r := s.Resolved()
		timeout := r.Timeout
		switch r.Name {
		case protocol.KindMCP: // the MCP tool times each attempt itself
			timeout = MCPConfig{Timeout: r.Timeout, Retries: r.Retries}.budget()
		case protocol.KindPython: // the sandbox stops the code at r.Timeout itself
			timeout = r.Timeout + pythonGrace
		}
		w.tools = append(w.tools, bound{tool: ts[i], kind: r.Name, maxUses: r.MaxUses,
			reward: r.ToolReward + r.SuccessReward, timeout: timeout})
	}
	return w, nil
}

// maxUses is the most tool steps of one episode.
func (w *Env) maxUses() int {
	n := 0
	for _, b := range w.tools {
		n += b.maxUses
	}
	return n
}

// Reset ends the tools' episodes, resets the inner env and appends the
// tools' instructions to its observation.
func (w *Env) Reset(seed uint64) (string, envs.Info, error) {
	w.active = false
	if err := w.endEpisode(); err != nil {
		return "", nil, err
	}
	obs, info, err := w.inner.Reset(seed)
	if err != nil {
		return obs, info, err
	}
	clear(w.uses)
	w.total, w.failed, w.paid, w.steps, w.envTurns = 0, 0, 0, 0, 0
	w.active = true
	w.task, w.lastTool = obs, ""
	out := maps.Clone(info)
	if out == nil {
		out = envs.Info{}
	}
	inner, _ := info[envs.InfoMaxTurns].(int)
	out[envs.InfoMaxTurns] = max(inner, 1) + w.maxUses()
	return obs + "\n\n" + w.Instructions(), out, nil
}

func (w *Env) endEpisode() error {
	var errs []error
	for _, t := range w.tools {
		if e, ok := t.tool.(Episodic); ok {
			errs = append(errs, e.EndEpisode())
		}
	}
	return errors.Join(errs...)
}

// Step lets the first tool with uses left that parses a call handle the
// action, or forwards it to the inner env.
func (w *Env) Step(action string) (envs.Step, error) {
	if !w.active {
		return envs.Step{}, fmt.Errorf("tools: %w", envs.ErrNotReset)
	}
	if i, call, ok := w.route(action); ok {
		return w.toolStep(i, call), nil
	}
	st, err := w.inner.Step(action)
	if err != nil {
		return st, err
	}
	w.steps++
	w.envTurns++
	w.lastTool = ""
	info := maps.Clone(st.Info)
	if info == nil {
		info = envs.Info{}
	}
	info[InfoUseTool] = false
	w.counters(info)
	st.Info = info
	if st.Done() {
		w.active = false
	}
	return st, nil
}

// route finds the tool that handles action: the first with uses left
// that parses a call from it.
func (w *Env) route(action string) (int, protocol.Call, bool) {
	for i := range w.tools {
		b := &w.tools[i]
		if w.uses[i] >= b.maxUses {
			continue
		}
		if call, ok := b.tool.Parse(action); ok {
			return i, call, true
		}
	}
	return 0, protocol.Call{}, false
}

func (w *Env) counters(info envs.Info) {
	info[envs.InfoTurn] = w.steps
	info[InfoEnvTurn] = w.envTurns
	info[InfoToolUses] = w.total
	info[InfoToolErrors] = w.failed
}

// toolStep runs call on tool i.
func (w *Env) toolStep(i int, call protocol.Call) envs.Step {
	b := &w.tools[i]
	ctx, cancel := context.WithTimeout(context.Background(), b.timeout)
	obs, err := b.tool.Run(ctx, call)
	cancel()
	w.uses[i]++
	w.total++
	w.steps++
	info := envs.Info{InfoUseTool: true, InfoToolType: b.kind, InfoParsedAction: call.Cut}
	reward := 0.0
	if err != nil {
		w.failed++
		info[InfoToolError] = err.Error()
	} else if b.reward > 0 {
		reward = min(b.reward, MaxToolRewardFraction*envs.RewardSuccess-w.paid)
		reward = max(reward, 0)
		w.paid += reward
	}
	if w.uses[i] == b.maxUses {
		obs += fmt.Sprintf("\n[That was the last %s call allowed in this episode (%d of %d): answer directly now.]\n", b.kind, w.uses[i], b.maxUses)
	}
	w.counters(info)
	w.lastTool = obs
	return envs.Step{Obs: obs, Reward: reward, Info: info}
}

// SampleAction draws, about one time in three while a tool has uses left,
// a well-formed call of a random such tool (with arbitrary content, which
// the tool may draw from the task statement), and otherwise the inner
// env's sample ("" when it has none). Right after a tool call, three in
// four of the inner samples that box an answer box a random word of the
// tool's observation instead, of the answer's kind (a number for a number)
// and new to the task: exploration that copies from what it was shown, as a
// pretrained model would, without knowing which word answers the task.
func (w *Env) SampleAction(r *rand.Rand) string {
	var open []int
	for i, b := range w.tools {
		if _, ok := b.tool.(CallSampler); ok && w.uses[i] < b.maxUses {
			open = append(open, i)
		}
	}
	if len(open) > 0 && r.IntN(3) == 0 {
		return w.tools[open[r.IntN(len(open))]].tool.(CallSampler).SampleCall(r, w.task)
	}
	s, ok := w.inner.(envs.ActionSampler)
	if !ok {
		return ""
	}
	a := s.SampleAction(r)
	if w.lastTool != "" && r.IntN(4) != 0 {
		if c, ok := reboxed(a, w.lastTool, w.task, r); ok {
			return c
		}
	}
	return a
}

// reboxed replaces the content of the first \boxed{…} of a with a random
// word of obs: of the same kind as the content (a number for a numeric
// answer, a word with letters otherwise) and, among those, one the task
// statement does not have (what the tool told that the task did not);
// each preference is dropped when no word meets it. False when a boxes
// nothing or obs has no word.
func reboxed(a, obs, task string, r *rand.Rand) (string, bool) {
	const open = `\boxed{`
	i := strings.Index(a, open)
	if i < 0 {
		return "", false
	}
	j := strings.IndexByte(a[i+len(open):], '}')
	if j < 0 {
		return "", false
	}
	content := strings.TrimSpace(a[i+len(open) : i+len(open)+j])
	numeric := content != "" && numberRE.FindString(content) == content
	inTask := map[string]bool{}
	for _, w := range taskWords(task) {
		inTask[w] = true
	}
	words := prefer(taskWords(obs), func(w string) bool { return (numberRE.FindString(w) == w) == numeric })
	words = prefer(words, func(w string) bool { return !inTask[w] })
	if len(words) == 0 {
		return "", false
	}
	return a[:i+len(open)] + copied(words[r.IntN(len(words))]) + a[i+len(open)+j:], true
}

// prefer returns the words that keep, or all of words when none does.
func prefer(words []string, keep func(string) bool) []string {
	var out []string
	for _, w := range words {
		if keep(w) {
			out = append(out, w)
		}
	}
	if len(out) == 0 {
		return words
	}
	return out
}

// Unwrap returns the inner env.
func (w *Env) Unwrap() envs.Env { return w.inner }

// Close ends the tools' episodes, closes the tools and then the inner env.
func (w *Env) Close() error {
	errs := []error{w.endEpisode()}
	for _, b := range w.tools {
		if c, ok := b.tool.(io.Closer); ok {
			errs = append(errs, c.Close())
		}
	}
	errs = append(errs, envs.Close(w.inner))
	return errors.Join(errs...)
}

// FormatErrorReward forwards to the inner env.
func (w *Env) FormatErrorReward() float64 {
	if f, ok := w.inner.(envs.FormatErrorRewarder); ok {
		return f.FormatErrorReward()
	}
	return envs.RewardFormatError
}

// Description is the inner env's, with the tools named.
func (w *Env) Description() string {
	d := ""
	if x, ok := w.inner.(envs.Describer); ok {
		d = x.Description()
	}
	kinds := make([]string, len(w.tools))
	for i, b := range w.tools {
		kinds[i] = b.kind
	}
	return strings.TrimSpace(d + " (tools: " + strings.Join(kinds, ", ") + ")")
}
