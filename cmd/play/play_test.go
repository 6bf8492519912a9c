package main

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/builtin"
	"github.com/gemgo/gemgo/envs/envtest"
	"github.com/gemgo/gemgo/internal/cli"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// toyRegistry holds envtest.Toy under two ids (seed 0 hides the digit 8).
func toyRegistry(t *testing.T) *envs.Registry {
	t.Helper()
	reg := envs.NewRegistry()
	factory := func(o *envs.Options) (envs.Env, error) {
		_ = o.Style()
		return envtest.NewToy(o.Int("max_turns", 4, 1, 20)), nil
	}
	require.NoError(t, reg.RegisterDesc("test:Toy-v0-easy", "Guess a digit in 4 turns.", factory))
	require.NoError(t, reg.RegisterDesc("other:Toy-v0", "Another toy.", factory))
	return reg
}

func play(t *testing.T, reg *envs.Registry, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errw bytes.Buffer
	code = player{reg: reg, stdin: strings.NewReader(stdin)}.run(context.Background(), args, &out, &errw)
	return code, out.String(), errw.String()
}

func TestPlayScriptedWin(t *testing.T) {
	code, out, errs := play(t, toyRegistry(t), "\\boxed{1}\n\\boxed{9}\r\n\\boxed{8}\n\\boxed{2}\n", "-env", "test:Toy-v0-easy", "-seed", "0")
	require.Equal(t, cli.ExitOK, code, errs)
	want := `== test:Toy-v0-easy seed 0 (max_turns 4)
guess 1-9
> \boxed{1}
reward -0.05  terminated false  truncated false  turn=1
t1 higher
> \boxed{9}
reward -0.05  terminated false  truncated false  turn=2
t2 lower
> \boxed{8}
reward 1  terminated true  truncated false  success=true  turn=3
t3 correct
== episode over: terminated, success true, return 0.9, turns 3
`
	assert.Equal(t, want, out, "the game stops at its end; later input is not read as actions")
	assert.Empty(t, errs)
}

func TestPlayOptionsTruncate(t *testing.T) {
	code, out, _ := play(t, toyRegistry(t), "\\boxed{1}\n\\boxed{0}\n", "-env", "test:Toy-v0-easy", "-opt", "max_turns=2", "-style", "brief")
	require.Equal(t, cli.ExitOK, code)
	assert.Contains(t, out, "(max_turns 2)")
	assert.Contains(t, out, "reward -0.05  terminated false  truncated true  invalid_move=true  success=false  turn=2")
	assert.True(t, strings.HasSuffix(out, "== episode over: truncated, success false, return -0.1, turns 2\n"), out)
}

func TestPlayFormatErrorAndEOF(t *testing.T) {
	code, out, _ := play(t, toyRegistry(t), "the answer is 8", "-env", "test:Toy-v0-easy")
	require.Equal(t, cli.ExitOK, code)
	assert.Contains(t, out, "> the answer is 8\nreward -0.1  terminated true  truncated false  format_error=true  success=false  turn=1\n")
	assert.Contains(t, out, "== episode over: terminated, success false, return -0.1, turns 1")

	code, out, _ = play(t, toyRegistry(t), "\\boxed{1}\n", "-env", "test:Toy-v0-easy")
	require.Equal(t, cli.ExitOK, code)
	assert.True(t, strings.HasSuffix(out, "stopped after 1 turns: no more input (return -0.05)\n"), out)
}

func TestPlayList(t *testing.T) {
	code, out, _ := play(t, toyRegistry(t), "", "-list")
	require.Equal(t, cli.ExitOK, code)
	assert.Equal(t, "other\n  other:Toy-v0  Another toy.\n\ntest\n  test:Toy-v0-easy  Guess a digit in 4 turns.\n", out)
}

func TestPlayErrors(t *testing.T) {
	reg := toyRegistry(t)
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"-env", "test:Toy-v0-eazy"}, cli.ExitFailed, `unknown env id "test:Toy-v0-eazy": did you mean test:Toy-v0-easy`},
		{[]string{"-env", "test:Toy-v0-easy", "-opt", "max_turns=99"}, cli.ExitFailed, "max_turns = 99 is out of range: allowed [1, 20]"},
		{[]string{"-env", "test:Toy-v0-easy", "-opt", "colour=red"}, cli.ExitFailed, "unknown option colour (valid options: max_turns, style)"},
		{[]string{"-env", "test:Toy-v0-easy", "-style", "loud"}, cli.ExitFailed, `style = "loud": allowed values are gem, brief`},
		{[]string{"-env", "test:Toy-v0-easy", "-opt", "max_turns"}, cli.ExitUsage, `want key=value, got "max_turns"`},
		{[]string{"-env", "test:Toy-v0-easy", "-opt", "style=gem", "-style", "brief"}, cli.ExitUsage, "give the style once"},
		{[]string{}, cli.ExitUsage, "-env is required"},
		{[]string{"-env", "test:Toy-v0-easy", "extra"}, cli.ExitUsage, `unexpected argument "extra"`},
		{[]string{"-seed", "-1"}, cli.ExitUsage, "invalid value"},
	}
	for _, c := range cases {
		code, out, errs := play(t, reg, "", c.args...)
		assert.Equal(t, c.code, code, "%v", c.args)
		assert.Contains(t, errs, c.want, "%v", c.args)
		assert.NotContains(t, out, "==", "%v: no game starts", c.args)
	}
}

func TestPlayCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errw bytes.Buffer
	r, w := io.Pipe() // blocks: no input ever comes
	defer w.Close()
	code := player{reg: toyRegistry(t), stdin: r}.run(ctx, []string{"-env", "test:Toy-v0-easy"}, &out, &errw)
	assert.Equal(t, cli.ExitInterrupted, code, "an interrupt exits 128 + SIGINT")
	assert.Contains(t, out.String(), "stopped after 0 turns: context canceled")
}

func TestPlayHelp(t *testing.T) {
	code, out, errs := play(t, toyRegistry(t), "", "-h")
	assert.Equal(t, cli.ExitOK, code)
	assert.Contains(t, out, "usage: play -env ID")
	assert.Contains(t, out, "-seed")
	assert.Empty(t, errs)
}

// TestPlayBuiltinGuessTheNumber plays the real game through run.
func TestPlayBuiltinGuessTheNumber(t *testing.T) {
	const id = "game:GuessTheNumber-v0-easy"
	if builtin.Registry().Description(id) == "" {
		t.Skip(id + " is not registered yet")
	}
	var out, errw bytes.Buffer
	// Guessing every number in turn: the game ends within its 4 turns
	// (win or truncation), whatever the target.
	script := "\\boxed{1}\n\\boxed{2}\n\\boxed{3}\n\\boxed{4}\n"
	code := player{reg: builtin.Registry(), stdin: strings.NewReader(script)}.run(context.Background(), []string{"-env", id, "-seed", "3", "-style", "brief"}, &out, &errw)
	require.Equal(t, cli.ExitOK, code, errw.String())
	assert.Contains(t, out.String(), "== "+id+" seed 3 (max_turns 4)\n")
	assert.Contains(t, out.String(), "== episode over: ")
	assert.NotContains(t, out.String(), "format_error=true")

	out.Reset()
	code = player{reg: builtin.Registry(), stdin: strings.NewReader("no box\n")}.run(context.Background(), []string{"-env", id}, &out, &errw)
	require.Equal(t, cli.ExitOK, code)
	assert.True(t, strings.HasSuffix(out.String(), "== episode over: terminated, success false, return -0.1, turns 1\n"), out.String())

	out.Reset()
	require.Equal(t, cli.ExitOK, player{reg: builtin.Registry(), stdin: strings.NewReader("")}.run(context.Background(), []string{"-list"}, &out, &errw))
	assert.Contains(t, out.String(), "\ngame\n")
	assert.Regexp(t, `\n  game:GuessTheNumber-v0-easy +\S`, out.String())
}

// -tool wraps the env: the search tool answers a search step, which is not
// a turn of the one-turn task, and the answer then ends the episode.
func TestPlayWithTool(t *testing.T) {
	var out, errw bytes.Buffer
	script := "<search>Relzan Othulvy</search>\n\\boxed{Ithbarka}\n"
	code := player{reg: builtin.Registry(), stdin: strings.NewReader(script)}.run(context.Background(), []string{"-env", "qa:Fictional-v0-onehop", "-seed", "0", "-tool", "{name: search, topk: 1}"}, &out, &errw)
	require.Equal(t, cli.ExitOK, code, errw.String())
	assert.Contains(t, out.String(), "(max_turns 6)")
	assert.Contains(t, out.String(), "<search>...</search>")
	assert.Contains(t, out.String(), "tool_type=search")
	assert.Contains(t, out.String(), "Doc 1(Title: Relzan Othulvy)")
	assert.Contains(t, out.String(), "turns 2\n")

	out.Reset()
	errw.Reset()
	code = player{reg: builtin.Registry(), stdin: strings.NewReader("")}.run(context.Background(), []string{"-env", "qa:Fictional-v0-onehop", "-tool", "serch"}, &out, &errw)
	assert.Equal(t, cli.ExitFailed, code)
	assert.Contains(t, errw.String(), `play: -tool: env.tools[0].name = "serch": allowed python, search, mcp`)
	code = player{reg: builtin.Registry(), stdin: strings.NewReader("")}.run(context.Background(), []string{"-env", "qa:Fictional-v0-onehop", "-tool", "{name: search, top: 1}"}, &out, &errw)
	assert.Equal(t, cli.ExitUsage, code)
	assert.Contains(t, errw.String(), "field top not found")
}
