package tools

import (
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/builtin"
	"github.com/gemgo/gemgo/envs/envtest"
	"github.com/gemgo/gemgo/tools/protocol"
)

// echo is a test tool: <echo>x</echo> answers "echo: x"; "fail" fails.
type echo struct{ runs int }

func (e *echo) Instructions() string { return "Echo with <echo>text</echo>." }

func (e *echo) Parse(a string) (protocol.Call, bool) {
	i := strings.Index(a, "<echo>")
	if i < 0 {
		return protocol.Call{}, false
	}
	s, _, ok := strings.Cut(a[i+len("<echo>"):], "</echo>")
	if !ok {
		return protocol.Call{}, false
	}
	end := i + len("<echo>") + len(s) + len("</echo>")
	return protocol.Call{Tool: "echo", Input: s, Cut: a[:end]}, true
}

func (e *echo) Run(_ context.Context, c protocol.Call) (string, error) {
	e.runs++
	if c.Input == "fail" {
		return "[echo error: told to fail]", errors.New("told to fail")
	}
	return "echo: " + c.Input, nil
}

func (e *echo) SampleCall(r *rand.Rand, _ string) string {
	return "<echo>" + string(rune('a'+r.IntN(26))) + "</echo>"
}

func wrapToy(t *testing.T, spec Spec, maxTurns int) (*Env, *echo) {
	t.Helper()
	e := &echo{}
	w, err := NewEnv(envtest.NewToy(maxTurns), []Spec{spec}, []Tool{e})
	require.NoError(t, err)
	return w, e
}

func step(t *testing.T, w envs.Env, a string) envs.Step {
	t.Helper()
	st, err := w.Step(a)
	require.NoError(t, err)
	return st
}

// GEM's semantics: instructions appended at reset, tool steps that neither
// end the episode nor count as turns of the inner env, the info keys.
func TestWrapperSemantics(t *testing.T) {
	w, e := wrapToy(t, Spec{Name: "python_tool_no_int_reward"}, 3)
	obs, info, err := w.Reset(4)
	require.NoError(t, err)
	assert.Equal(t, "guess 1-9\n\nEcho with <echo>text</echo>.", obs)
	assert.Equal(t, 3+5, info[envs.InfoMaxTurns], "max_turns + max_uses steps")

	st := step(t, w, "let me see <echo>hi</echo> and \\boxed{3}")
	assert.Equal(t, "echo: hi", st.Obs)
	assert.False(t, st.Done())
	assert.Equal(t, 0.0, st.Reward)
	assert.Equal(t, envs.Info{InfoUseTool: true, InfoToolType: protocol.KindPython, InfoParsedAction: "let me see <echo>hi</echo>",
		envs.InfoTurn: 1, InfoEnvTurn: 0, InfoToolUses: 1, InfoToolErrors: 0}, st.Info, "at most one call per step; the rest is dropped")

	target := envtest.ToyTarget(4)
	wrong := 1 + target%9
	st = step(t, w, envs.Boxed(string(rune('0'+wrong))))
	assert.Equal(t, false, st.Info[InfoUseTool])
	assert.Equal(t, 2, st.Info[envs.InfoTurn])
	assert.Equal(t, 1, st.Info[InfoEnvTurn])
	assert.Equal(t, 1, st.Info[InfoToolUses])
	assert.True(t, strings.HasPrefix(st.Obs, "t1 "), "the inner env saw its first turn: %q", st.Obs)
	assert.Equal(t, 1, e.runs)

	st = step(t, w, "no call and no box")
	assert.True(t, st.Terminated, "an action that is no call reaches the inner env: a format error")
	assert.Equal(t, true, st.Info[envs.InfoFormatError])
	assert.Equal(t, envs.RewardFormatError, st.Reward)
}

// A call that parses but fails is the tool's: the model sees the error,
// the inner env never grades it as an answer (GEM lets it fall through).
func TestWrapperFailedCallIsNotGraded(t *testing.T) {
	w, _ := wrapToy(t, Spec{Name: "python_tool"}, 1)
	_, _, err := w.Reset(1)
	require.NoError(t, err)
	st := step(t, w, "<echo>fail</echo>")
	assert.Equal(t, "[echo error: told to fail]", st.Obs)
	assert.False(t, st.Done(), "a one-turn env is still waiting for its answer")
	assert.Equal(t, 0.0, st.Reward, "a failed call pays no tool reward")
	assert.Equal(t, "told to fail", st.Info[InfoToolError])
	assert.Equal(t, 1, st.Info[InfoToolErrors])
	assert.Equal(t, 0, st.Info[InfoEnvTurn])
}

// max_uses: the last allowed call carries the notice; a call past it goes
// to the inner env unchanged.
func TestWrapperMaxUses(t *testing.T) {
	w, e := wrapToy(t, Spec{Name: protocol.KindPython, MaxUses: 2}, 3)
	_, info, err := w.Reset(2)
	require.NoError(t, err)
	assert.Equal(t, 5, info[envs.InfoMaxTurns])
	st := step(t, w, "<echo>a</echo>")
	assert.Equal(t, "echo: a", st.Obs)
	st = step(t, w, "<echo>b</echo>")
	assert.Equal(t, "echo: b\n[That was the last python call allowed in this episode (2 of 2): answer directly now.]\n", st.Obs)
	for range 10 {
		a := w.SampleAction(rand.New(rand.NewPCG(1, 2)))
		assert.NotContains(t, a, "<echo>", "no sampled calls once the uses are spent")
	}
	st = step(t, w, "<echo>c</echo>")
	assert.Equal(t, false, st.Info[InfoUseTool])
	assert.True(t, st.Terminated, "the inner env read it: a format error")
	assert.Equal(t, true, st.Info[envs.InfoFormatError])
	assert.Equal(t, 2, e.runs)

	// The next episode starts with fresh counters.
	_, _, err = w.Reset(3)
	require.NoError(t, err)
	st = step(t, w, "<echo>d</echo>")
	assert.Equal(t, 1, st.Info[InfoToolUses])
}

// Intermediate rewards: paid only for calls that succeed, and never more
// than MaxToolRewardFraction of a solve over an episode (GEM's python_tool
// preset pays 0.3 a call, 1.5 over five calls).
func TestWrapperRewardsCapped(t *testing.T) {
	w, _ := wrapToy(t, Spec{Name: "python_tool"}, 1)
	_, _, err := w.Reset(1)
	require.NoError(t, err)
	var got []float64
	total := 0.0
	for _, in := range []string{"a", "fail", "b", "c", "d"} {
		st := step(t, w, "<echo>"+in+"</echo>")
		got = append(got, st.Reward)
		total += st.Reward
	}
	assert.InDeltaSlice(t, []float64{0.3, 0, 0.2, 0, 0}, got, 1e-12)
	assert.InDelta(t, MaxToolRewardFraction*envs.RewardSuccess, total, 1e-12)
	assert.Less(t, total, envs.RewardSuccess)

	w, _ = wrapToy(t, Spec{Name: "search_tool"}, 1)
	_, _, err = w.Reset(1)
	require.NoError(t, err)
	assert.Equal(t, 0.0, step(t, w, "<echo>fail</echo>").Reward, "search_tool pays nothing for a failed search (GEM pays 0.3)")
	assert.Equal(t, 0.3, step(t, w, "<echo>ok</echo>").Reward)
}

// SampleAction sometimes draws a well-formed call, and otherwise the inner
// env's action.
func TestWrapperSampleAction(t *testing.T) {
	w, _ := wrapToy(t, Spec{Name: protocol.KindPython}, 3)
	_, _, err := w.Reset(1)
	require.NoError(t, err)
	r := rand.New(rand.NewPCG(7, 7))
	calls := 0
	for range 300 {
		a := w.SampleAction(r)
		if _, ok := (&echo{}).Parse(a); ok {
			calls++
		} else {
			_, boxed := envs.LastBoxed(a)
			assert.True(t, boxed, a)
		}
	}
	assert.InDelta(t, 100, calls, 30, "about one draw in three is a call")
}

func TestWrappedToyConforms(t *testing.T) {
	envtest.CheckEnv(t, func() (envs.Env, error) {
		return NewEnv(envtest.NewToy(4), []Spec{{Name: protocol.KindPython, MaxUses: 3}}, []Tool{&echo{}})
	}, envtest.FreeText()) // a tool call has no \boxed{}
}

func TestWrapErrors(t *testing.T) {
	toy := envtest.NewToy(2)
	same, err := Wrap(toy, nil)
	require.NoError(t, err)
	assert.Same(t, toy, same.(*envtest.Toy), "no tools: the env itself")
	_, err = Wrap(toy, []Spec{{Name: "pyhton"}})
	assert.ErrorContains(t, err, `env.tools[0].name = "pyhton": allowed python, search, mcp, python_tool`)
	_, err = Wrap(toy, []Spec{{Name: "python", TopK: 3}})
	assert.ErrorContains(t, err, "env.tools[0].topk is a search key, but this tool is python: remove it")
	_, err = Wrap(toy, []Spec{{Name: "search"}, {Name: "search_tool"}})
	assert.ErrorContains(t, err, "env.tools[0] and env.tools[1] are both search tools")
	_, err = Wrap(toy, []Spec{{Name: "mcp"}})
	assert.ErrorContains(t, err, "env.tools[0].command or env.tools[0].endpoint: give exactly one")
	_, err = Wrap(toy, []Spec{{Name: "python", MaxUses: 101, ToolReward: -1}})
	assert.ErrorContains(t, err, "env.tools[0].max_uses = 101: allowed [1, 100]")
	assert.ErrorContains(t, err, "env.tools[0].tool_reward = -1: allowed [0, 1]")
	_, err = Wrap(toy, []Spec{{Name: "search", Corpus: "/no/such/corpus.jsonl"}})
	assert.ErrorContains(t, err, "corpus /no/such/corpus.jsonl")
}

func TestPresetsResolve(t *testing.T) {
	for name, want := range map[string]Spec{
		"python_tool":               {Name: protocol.KindPython, MaxUses: 5, ToolReward: 0.05, SuccessReward: 0.25},
		"python_tool_no_int_reward": {Name: protocol.KindPython, MaxUses: 5},
		"search_tool":               {Name: protocol.KindSearch, MaxUses: 5, ToolReward: 0.3},
		"search_tool_no_int_reward": {Name: protocol.KindSearch, MaxUses: 5},
	} {
		r := Spec{Name: name}.Resolved()
		assert.Equal(t, want.Name, r.Name, name)
		assert.Equal(t, want.MaxUses, r.MaxUses, name)
		assert.Equal(t, want.ToolReward, r.ToolReward, name)
		assert.Equal(t, want.SuccessReward, r.SuccessReward, name)
	}
	assert.Equal(t, 5*time.Second, Spec{Name: protocol.KindPython}.Resolved().Timeout)
	assert.Equal(t, 30*time.Second, Spec{Name: protocol.KindMCP}.Resolved().Timeout)
}

// A search tool with no corpus of its own searches the corpus of the
// fictional world it wraps; one that names a corpus keeps it.
func TestWrapSearchesTheTasksCorpus(t *testing.T) {
	reg := builtin.Registry()
	first := func(id string, spec Spec) string {
		inner, err := reg.Make(id, envs.FromMap(map[string]any{"style": "brief"})...)
		require.NoError(t, err)
		env, err := Wrap(inner, []Spec{spec})
		require.NoError(t, err)
		defer env.(io.Closer).Close()
		obs, _, err := env.Reset(0)
		require.NoError(t, err)
		name := taskName(obs)
		require.NotEmpty(t, name)
		st, err := env.Step("<search>" + name + "</search>")
		require.NoError(t, err)
		return st.Obs
	}
	obs := first("qa:Fictional-v1-onehop", Spec{Name: protocol.KindSearch, TopK: 1})
	assert.True(t, strings.HasPrefix(obs, "Doc 1(Title: Tal-fen Dul-ul-qua)"), obs)
	obs = first("qa:Fictional-v1-onehop", Spec{Name: protocol.KindSearch, TopK: 1, Corpus: CorpusFictional})
	assert.False(t, strings.HasPrefix(obs, "Doc 1(Title: Tal-fen"), "an explicit corpus is kept: %s", obs)
	obs = first("qa:Fictional-v0-onehop", Spec{Name: protocol.KindSearch, TopK: 1})
	assert.True(t, strings.HasPrefix(obs, "Doc 1(Title: Fenpel Wynulvy)"), obs)
}

// Tool-wrapped built-in tasks pass the conformance suite with the real
// tools (few episodes and mutations: each python call starts a process).
func TestToolEnvsConform(t *testing.T) {
	reg := builtin.Registry()
	cases := []struct {
		id    string
		specs []Spec
		opts  []envtest.Option
	}{
		{"qa:Fictional-v0-twohop", []Spec{{Name: "search_tool_no_int_reward"}}, nil},
		{"qa:Fictional-v0-onehop", []Spec{{Name: protocol.KindSearch, InformationTags: true, TopK: 2}}, nil},
		{"qa:Fictional-v1-onehop", []Spec{{Name: "search_tool_no_int_reward", TopK: 1}}, nil},
		{"math:Products-v0", []Spec{{Name: "python_tool_no_int_reward", MaxUses: 2}}, []envtest.Option{envtest.Episodes(4), envtest.Mutations(6)}},
	}
	for _, c := range cases {
		t.Run(c.id, func(t *testing.T) {
			if c.specs[0].Resolved().Name == protocol.KindPython {
				newPython(t, PythonConfig{})
			}
			envtest.CheckEnv(t, func() (envs.Env, error) {
				inner, err := reg.Make(c.id)
				if err != nil {
					return nil, err
				}
				return Wrap(inner, c.specs)
			}, append(c.opts, envtest.FreeText())...)
		})
	}
}

// The MCP-wrapped env conforms too: one server process per episode that
// calls a tool.
func TestMCPEnvConforms(t *testing.T) {
	bin := toolServerBin(t)
	envtest.CheckEnv(t, func() (envs.Env, error) {
		return Wrap(envtest.NewToy(3), []Spec{{Name: protocol.KindMCP, Command: []string{bin}, MaxUses: 2}})
	}, envtest.Episodes(6), envtest.Mutations(8), envtest.FreeText())
}

// After a call, a reboxed answer copies a word of the tool's observation
// of the answer's kind: numbers for a numeric answer, words with letters
// for one in letters.
func TestReboxedKeepsTheAnswersKind(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	obs := "Code execution result: 1528257\n[That was the last python call allowed in this episode (2 of 2): answer directly now.]\n"
	numbers, letters := map[string]int{}, map[string]int{}
	for range 400 {
		a, ok := reboxed(`\boxed{41}`, obs, "", r)
		require.True(t, ok)
		got, _ := envs.LastBoxed(a)
		numbers[got]++
		a, ok = reboxed(`I think \boxed{blue}.`, obs, "", r)
		require.True(t, ok)
		require.True(t, strings.HasPrefix(a, `I think \boxed{ `) && strings.HasSuffix(a, "}."), a)
		got, _ = envs.LastBoxed(a)
		letters[strings.TrimSpace(got)]++
	}
	assert.ElementsMatch(t, []string{"1528257", "2"}, keys(numbers), "only the numbers of obs")
	assert.NotContains(t, letters, "1528257")
	assert.Contains(t, letters, "execution")
	assert.Len(t, letters, 17, "every letter word of obs: Code execution result That was the last python call allowed in this episode of answer directly now")
	_, ok := reboxed(`\boxed{7}`, "1 + 2", "", r)
	assert.True(t, ok)
	a, ok := reboxed(`\boxed{7}`, "no numbers here", "", r)
	assert.True(t, ok, "a kind obs lacks: any word")
	got, _ := envs.LastBoxed(a)
	assert.Contains(t, []string{"no", "numbers", "here"}, got)
	task := "What is the profession of Dulwyn Dulkatal? Answer in \\boxed{}."
	doc := "Doc 1(Title: Dulwyn Dulkatal) Dulwyn Dulkatal (born 1922 in Noxbrimi) is a Shaulreln composer."
	fresh := map[string]int{}
	for range 300 {
		a, ok := reboxed(`\boxed{blue}`, doc, task, r)
		require.True(t, ok)
		got, _ := envs.LastBoxed(a)
		fresh[got]++
	}
	assert.ElementsMatch(t, []string{"Doc", "Title", "born", "Noxbrimi", "a", "Shaulreln", "composer"}, keys(fresh),
		"the letter words of the document that the question does not have")
	_, ok = reboxed("no box", obs, "", r)
	assert.False(t, ok)
	_, ok = reboxed(`\boxed{7}`, "...", "", r)
	assert.False(t, ok)
}

func keys(m map[string]int) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
