package tools

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func newPython(t *testing.T, cfg PythonConfig) *Python {
	t.Helper()
	p, err := NewPython(cfg)
	if err != nil {
		t.Skipf("no Python 3 (apt-get install python3): %v", err)
	}
	return p
}

func TestPythonParse(t *testing.T) {
	p := &Python{cfg: PythonConfig{Timeout: time.Second}}
	for _, c := range []struct {
		action, code, cut string
		ok                bool
	}{
		{"<python>print(1)</python> then", "print(1)", "<python>print(1)</python>", true},
		{"a ```python\nprint(2)\n``` b", "print(2)\n", "a ```python\nprint(2)\n```", true},
		// the block that ends first wins, whatever its format
		{"```python\nx=1\n``` <python>y</python>", "x=1\n", "```python\nx=1\n```", true},
		{"<python>y</python> ```python\nx\n```", "y", "<python>y</python>", true},
		{"<python>a ```python\nb\n``` c</python>", "b\n", "<python>a ```python\nb\n```", true},
		{"```py\nprint(1)\n```", "", "", false},
		{"```python3\nprint(1)\n```", "", "", false},
		{"<python>print(1)", "", "", false},
		{"```python\nprint(1)", "", "", false},
		{`\boxed{3}`, "", "", false},
	} {
		call, ok := p.Parse(c.action)
		require.Equal(t, c.ok, ok, "%q", c.action)
		if ok {
			assert.Equal(t, c.code, call.Input, "%q", c.action)
			assert.Equal(t, c.cut, call.Cut, "%q", c.action)
			assert.Equal(t, KindPython, call.Tool)
		}
	}
}

func TestPythonRun(t *testing.T) {
	p := newPython(t, PythonConfig{Timeout: 5 * time.Second, MaxOutput: 300})
	ctx := context.Background()
	obs, err := p.Run(ctx, Call{Input: "print(4821 * 317)"})
	require.NoError(t, err)
	assert.Equal(t, "Code execution result: 1528257\n", obs, "GEM's observation format")

	obs, err = p.Run(ctx, Call{Input: "import sys\nprint('out')\nprint('warn', file=sys.stderr)"})
	require.NoError(t, err, "stderr alone is not a failure")
	assert.Equal(t, "Code execution result: out\nwarn\n", obs)

	obs, err = p.Run(ctx, Call{Input: "print('before')\n1/0"})
	require.Error(t, err, "a failing program is a failed call")
	assert.True(t, strings.HasPrefix(obs, "Code execution result: before\nTraceback"), obs)
	assert.Contains(t, obs, "ZeroDivisionError")
	assert.NotContains(t, obs, "gemgo-sandbox-", "the sandbox directory is stripped: observations are deterministic")

	obs, err = p.Run(ctx, Call{Input: "print('x' * 1000)"})
	require.NoError(t, err)
	assert.Equal(t, "Code execution result: "+strings.Repeat("x", 300)+"\n[output truncated: 300 of 1000 bytes shown]\n", obs)

	last := newPython(t, PythonConfig{StderrLastLine: true})
	obs, err = last.Run(ctx, Call{Input: "1/0"})
	require.Error(t, err)
	assert.Equal(t, "Code execution result: \nZeroDivisionError: division by zero\n", obs)
}

// The configured timeout is the one that holds: an endless loop ends
// within the limit + 0.5 s, and the message quotes the same limit.
func TestPythonTimeoutHolds(t *testing.T) {
	const limit = time.Second
	p := newPython(t, PythonConfig{Timeout: limit})
	assert.Contains(t, p.Instructions(), "1s")
	start := time.Now()
	obs, err := p.Run(context.Background(), Call{Input: "while True:\n    pass"})
	took := time.Since(start)
	require.Error(t, err)
	assert.Less(t, took, limit+500*time.Millisecond, "the run must end within the configured limit + 0.5 s")
	assert.GreaterOrEqual(t, took, limit-50*time.Millisecond, "and not before it")
	assert.Contains(t, obs, "the 1s limit")
	assert.Contains(t, err.Error(), "timed out after 1s")
}

func TestTruncate(t *testing.T) {
	assert.Equal(t, "abc", truncate("abc", 3, false))
	assert.Equal(t, "ab\n[output truncated: 2 of 3 bytes shown]", truncate("abc", 2, false))
	// a rune cut in two is dropped whole
	assert.Equal(t, "a\n[output truncated: 1 of 3 bytes shown]", truncate("aé", 2, false))
	assert.Equal(t, "ab\n[output truncated to 2 bytes]", truncate("ab", 5, true))
}
