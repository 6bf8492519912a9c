package tools

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/envs/envtest"
	"github.com/gemgo/gemgo/sandbox"
	"github.com/gemgo/gemgo/tools/protocol"
)

func newPython(t *testing.T, cfg PythonConfig) *Python {
	t.Helper()
	p, err := NewPython(cfg)
	if err != nil {
		t.Skipf("no Python 3 (apt-get install python3): %v", err)
	}
	t.Cleanup(func() { assert.NoError(t, p.Close()) })
	return p
}

// pythonPaths are the two ways the tool runs a call: forked from its warm
// interpreter (the default) and in a fresh process.
var pythonPaths = []struct {
	name  string
	fresh bool
}{{"warm", false}, {"fresh", true}}

// eachPath runs f as a subtest with a tool of cfg on each path; the warm
// tool's server must start (the sandbox runs Python here, or newPython
// skipped).
func eachPath(t *testing.T, cfg PythonConfig, f func(t *testing.T, p *Python)) {
	t.Helper()
	for _, path := range pythonPaths {
		t.Run(path.name, func(t *testing.T) {
			c := cfg
			c.FreshProcess = path.fresh
			p := newPython(t, c)
			require.Equal(t, path.fresh, p.server == nil)
			f(t, p)
			assert.False(t, p.cold.Load(), "the warm server started and served every call")
		})
	}
}

func TestPythonRun(t *testing.T) {
	eachPath(t, PythonConfig{Timeout: 5 * time.Second, MaxOutput: 300}, func(t *testing.T, p *Python) {
		ctx := context.Background()
		obs, err := p.Run(ctx, protocol.Call{Input: "print(4821 * 317)"})
		require.NoError(t, err)
		assert.Equal(t, "Code execution result: 1528257\n", obs, "GEM's observation format")

		obs, err = p.Run(ctx, protocol.Call{Input: "import sys\nprint('out')\nprint('warn', file=sys.stderr)"})
		require.NoError(t, err, "stderr alone is not a failure")
		assert.Equal(t, "Code execution result: out\nwarn\n", obs)

		obs, err = p.Run(ctx, protocol.Call{Input: "print('before')\n1/0"})
		require.Error(t, err, "a failing program is a failed call")
		assert.True(t, strings.HasPrefix(obs, "Code execution result: before\nTraceback"), obs)
		assert.Contains(t, obs, `File "main.py", line 2, in <module>`)
		assert.Contains(t, obs, "ZeroDivisionError")
		assert.NotContains(t, obs, "gemgo-sandbox-", "the sandbox directory is stripped: observations are deterministic")

		obs, err = p.Run(ctx, protocol.Call{Input: "print('x' * 1000)"})
		require.NoError(t, err)
		assert.Equal(t, "Code execution result: "+strings.Repeat("x", 300)+"\n[output truncated: 300 of 1000 bytes shown]\n", obs)

		obs, err = p.Run(ctx, protocol.Call{Input: "while True:\n    print('y' * 999)"})
		require.NoError(t, err, "output past the sandbox's cap is cut, not a failure")
		assert.True(t, strings.HasSuffix(obs, strings.Repeat("y", 4)+"\n[output truncated to 300 bytes]\n"), obs)
	})
}

func TestPythonStderrLastLine(t *testing.T) {
	eachPath(t, PythonConfig{StderrLastLine: true}, func(t *testing.T, last *Python) {
		obs, err := last.Run(context.Background(), protocol.Call{Input: "1/0"})
		require.Error(t, err)
		assert.Equal(t, "Code execution result: \nZeroDivisionError: division by zero\n", obs)
	})
}

// The configured timeout is the one that holds: an endless loop ends
// within the limit + 0.5 s, and the message quotes the same limit. The
// call after it runs normally.
func TestPythonTimeoutHolds(t *testing.T) {
	const limit = time.Second
	eachPath(t, PythonConfig{Timeout: limit}, func(t *testing.T, p *Python) {
		assert.Contains(t, p.Instructions(), "1s")
		_, err := p.Run(context.Background(), protocol.Call{Input: "pass"}) // the warm interpreter starts
		require.NoError(t, err)
		start := time.Now()
		obs, err := p.Run(context.Background(), protocol.Call{Input: "while True:\n    pass"})
		took := time.Since(start)
		require.Error(t, err)
		assert.Less(t, took, limit+500*time.Millisecond, "the run must end within the configured limit + 0.5 s")
		assert.GreaterOrEqual(t, took, limit-50*time.Millisecond, "and not before it")
		assert.Contains(t, obs, "the 1s limit")
		assert.Contains(t, err.Error(), "timed out after 1s")

		obs, err = p.Run(context.Background(), protocol.Call{Input: "print(6 * 7)"})
		require.NoError(t, err, "the call after a timeout")
		assert.Equal(t, "Code execution result: 42\n", obs)
	})
}

// In a wrapped env the call gets the tool's own timeout verdict, not the
// wrapper's deadline.
func TestPythonTimeoutWrapped(t *testing.T) {
	eachPath(t, PythonConfig{Timeout: time.Second}, func(t *testing.T, p *Python) {
		w, err := NewEnv(envtest.NewToy(3), []Spec{{Name: protocol.KindPython, Timeout: time.Second}}, []Tool{p})
		require.NoError(t, err)
		_, _, err = w.Reset(1)
		require.NoError(t, err)
		st := step(t, w, "<python>while True:\n    pass</python>")
		assert.Equal(t, "Code execution result: \nTimeoutError: the code ran longer than the 1s limit and was stopped\n", st.Obs)
		assert.Equal(t, "python: timed out after 1s", st.Info[InfoToolError])
	})
}

// Both paths give byte-identical observations and errors. The limit is
// 3 s, not 1 s: on a loaded machine a fresh interpreter that fills 512 MiB
// before its MemoryError can take longer than a second, and would then be
// stopped by the wall limit on one path only.
func TestPythonPathsAgree(t *testing.T) {
	cfg := PythonConfig{Timeout: 3 * time.Second, MaxOutput: 400}
	warm := newPython(t, cfg)
	cfg.FreshProcess = true
	fresh := newPython(t, cfg)
	for _, code := range []string{
		"print(4821 * 317)",
		"print('before')\ndef f(x):\n    return 1 / x\nf(0)",
		"import sys\nsys.stderr.write('careful\\n')\nprint('done')",
		"print('partial')\nexit(3)",
		"import sys\nsys.exit('bad input')",
		"print('é∑😀 ünïcode')",
		"x = (",
		"def f(n):\n    return f(n + 1)\nf(0)",
		"print('z' * 5000)",
		"while True:\n    pass",
		"x = bytearray(2 << 30)",
		"import sys\nprint(sorted(sys.modules))",
	} {
		wobs, werr := warm.Run(context.Background(), protocol.Call{Input: code})
		fobs, ferr := fresh.Run(context.Background(), protocol.Call{Input: code})
		assert.Equal(t, fobs, wobs, "%q", code)
		assert.Equal(t, fmt.Sprint(ferr), fmt.Sprint(werr), "%q", code)
	}
	assert.False(t, warm.cold.Load())
}

// The memory limit is named in the observation.
func TestPythonMemoryLimit(t *testing.T) {
	if sandbox.Detect().Limits == sandbox.LimitsNone {
		t.Skip("no prlimit or sh here: the memory limit cannot be set")
	}
	eachPath(t, PythonConfig{Timeout: 10 * time.Second}, func(t *testing.T, p *Python) {
		obs, err := p.Run(context.Background(), protocol.Call{Input: "x = bytearray(2 << 30)\nprint(len(x))"})
		assert.EqualError(t, err, "python: memory limit")
		assert.Contains(t, obs, "MemoryError")
		assert.True(t, strings.HasSuffix(obs, "MemoryError: the code used more than 512 MiB and was stopped\n"), obs)
	})
}

// processesWith lists the pids whose command line holds s.
func processesWith(s string) []string {
	var out []string
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && strings.Contains(string(b), s) {
			out = append(out, e.Name())
		}
	}
	return out
}

// A call of the warm tool sees nothing of the calls before it: globals,
// imported and patched modules, builtins, files in its directory, and
// processes it started.
func TestPythonWarmCallsAreIsolated(t *testing.T) {
	p := newPython(t, PythonConfig{})
	mark := fmt.Sprintf("%d.%d", 20+os.Getpid()%50, time.Now().UnixNano()%1000)
	ctx := context.Background()
	obs, err := p.Run(ctx, protocol.Call{Input: `import builtins, json, subprocess
secret = 1
json.dumps = None
builtins.print = None
open('left.txt', 'w').write('x')
subprocess.Popen(['sleep', '` + mark + `'])`})
	require.NoError(t, err, obs)
	assert.Empty(t, processesWith(mark), "the background child does not outlive the call")
	obs, err = p.Run(ctx, protocol.Call{Input: "import json, os\nprint('secret' in globals(), json.dumps({}), os.listdir('.'))"})
	require.NoError(t, err, obs)
	assert.Equal(t, "Code execution result: False {} ['main.py']\n", obs)
	assert.NotNil(t, p.server)
	assert.False(t, p.cold.Load())
}

// A server that cannot start leaves the tool on fresh processes, with no
// error, for good.
func TestPythonWarmFallback(t *testing.T) {
	p := newPython(t, PythonConfig{})
	require.NoError(t, p.server.Close())
	p.server = sandbox.NewPythonServer("false", 0) // exits at once: never ready
	for range 2 {
		obs, err := p.Run(context.Background(), protocol.Call{Input: "print(6 * 7)"})
		require.NoError(t, err)
		assert.Equal(t, "Code execution result: 42\n", obs)
		assert.True(t, p.cold.Load(), "the decision is remembered")
	}
}

func TestPythonFreshProcessSpec(t *testing.T) {
	tool, err := New(Spec{Name: protocol.KindPython, FreshProcess: true})
	if err != nil {
		t.Skipf("no Python 3: %v", err)
	}
	p := tool.(*Python)
	assert.Nil(t, p.server, "fresh_process: no warm interpreter")
	assert.NoError(t, p.Close())
	tool, err = New(Spec{Name: protocol.KindPython})
	require.NoError(t, err)
	assert.NotNil(t, tool.(*Python).server, "warm by default")
	assert.NoError(t, tool.(*Python).Close())
	err = Spec{Name: protocol.KindSearch, FreshProcess: true}.Validate(0)
	assert.ErrorContains(t, err, "env.tools[0].fresh_process is a python key, but this tool is search: remove it")
}

func TestTruncate(t *testing.T) {
	assert.Equal(t, "abc", truncate("abc", 3, false))
	assert.Equal(t, "ab\n[output truncated: 2 of 3 bytes shown]", truncate("abc", 2, false))
	// a rune cut in two is dropped whole
	assert.Equal(t, "a\n[output truncated: 1 of 3 bytes shown]", truncate("aé", 2, false))
	assert.Equal(t, "ab\n[output truncated to 2 bytes]", truncate("ab", 5, true))
}

func benchPython(b *testing.B, fresh bool) {
	p, err := NewPython(PythonConfig{FreshProcess: fresh})
	if err != nil {
		b.Skip(err)
	}
	defer p.Close()
	b.ReportAllocs()
	for b.Loop() {
		if obs, err := p.Run(context.Background(), protocol.Call{Input: "print(6 * 7)"}); err != nil || obs != "Code execution result: 42\n" {
			b.Fatalf("%q %v", obs, err)
		}
	}
	if p.cold.Load() {
		b.Fatal("the warm server did not start: this measured fresh processes")
	}
}

// BenchmarkPythonToolWarm: one call forked from the tool's warm
// interpreter (its start, at the first call, included).
func BenchmarkPythonToolWarm(b *testing.B) { benchPython(b, false) }

// BenchmarkPythonToolFresh: one call in a fresh sandboxed interpreter.
func BenchmarkPythonToolFresh(b *testing.B) { benchPython(b, true) }
