package tools

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/gemgo/gemgo/sandbox"
	"github.com/gemgo/gemgo/tools/protocol"
)

// PythonConfig configures the Python tool.
type PythonConfig struct {
	// Python is the interpreter, a command on PATH or a path. The default,
	// sandbox.DefaultPython (python3), is PATH's python3 or, where the
	// sandbox cannot run that one, a Python 3 every user may run
	// (sandbox.PythonFor, which logs the choice); any other value is kept.
	Python string
	// Timeout is the wall-clock limit of one run (5 s); the instructions
	// and the timeout message quote this same value.
	Timeout time.Duration
	// MaxOutput is the most bytes of output shown (2000).
	MaxOutput int
	// StderrLastLine keeps only the last line of stderr.
	StderrLastLine bool
	// FreshProcess starts a fresh sandboxed interpreter for every call
	// (sandbox.Run, paying the interpreter's start each time) instead of
	// forking the call from the tool's warm one (sandbox.PythonServer, the
	// default). The observations are the same either way.
	FreshProcess bool
}

// Python runs the first code block of an action in the sandbox: a
// <python>…</python> block or a fenced block opened with ```python (GEM's
// two formats; ```py does not match).
//
// Observation (GEM's): "Code execution result: " + stdout, then "\n" +
// stderr when there is any, then "\n" (trailing newlines of stdout and
// stderr trimmed, so that a print does not leave an empty line). Output longer than MaxOutput is cut
// at MaxOutput bytes and ends with a marker. A program that exits with an
// error, times out or hits a limit is a failed call: the same observation,
// with the traceback or the limit named, and an error.
//
// Each call runs as `python3 -I main.py` in a fresh working directory of
// the sandbox. By default the tool keeps a warm interpreter of its own (a
// sandbox.PythonServer, started at the first call) that forks each call,
// so that a call costs a fork rather than an interpreter's start; where
// that server cannot start, the tool says nothing and runs every later
// call in a fresh process (PythonConfig.FreshProcess asks for that from
// the start), and a call during which the server died runs again in a
// fresh process. Close stops the server.
type Python struct {
	cfg    PythonConfig
	exe    string
	server *sandbox.PythonServer // nil with FreshProcess
	cold   atomic.Bool           // the server did not start: every call runs fresh
}

var (
	_ Tool        = (*Python)(nil)
	_ CallSampler = (*Python)(nil)
	_ io.Closer   = (*Python)(nil)
)

// NewPython checks the interpreter and returns the tool.
func NewPython(cfg PythonConfig) (*Python, error) {
	if cfg.Python == "" {
		cfg.Python = sandbox.DefaultPython
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 5 * time.Second
	}
	if cfg.MaxOutput <= 0 {
		cfg.MaxOutput = 2000
	}
	// The interpreter is one the sandbox can start (the default python3
	// falls back to one it can, and the sandbox logs which): one it cannot
	// start fails every call alike; said now, it stops a run before it
	// trains on error observations.
	exe, _, err := sandbox.PythonFor(cfg.Python, sandbox.Detect())
	if err != nil {
		return nil, fmt.Errorf("python tool: %w", err)
	}
	p := &Python{cfg: cfg, exe: exe}
	if !cfg.FreshProcess {
		p.server = sandbox.NewPythonServer(exe, 0)
	}
	return p, nil
}

// Close stops the warm interpreter, if any.
func (p *Python) Close() error {
	if p.server == nil {
		return nil
	}
	return p.server.Close()
}

// Instructions tells the model how to run code.
func (p *Python) Instructions() string { return protocol.PythonInstructions(p.cfg.Timeout) }

// pythonGrace is how long past its timeout a call may take to come back:
// the sandbox stops the code at the timeout, and then needs a moment to
// kill and reap it (a second at most for the warm interpreter, half a
// second for a fresh one). The wrapper's deadline for a call allows it, so
// that a call that times out gets its TimeoutError observation rather
// than the deadline's error.
const pythonGrace = 2 * time.Second

// Parse finds the first complete code block (protocol.ParsePython).
func (p *Python) Parse(action string) (protocol.Call, bool) { return protocol.ParsePython(action) }

// Run executes the code under the configured limits.
func (p *Python) Run(ctx context.Context, c protocol.Call) (string, error) {
	res, err := p.execute(ctx, c.Input)
	if err != nil {
		return "Code execution result: \n" + err.Error() + "\n", fmt.Errorf("python: %w", err)
	}
	stdout := string(res.Stdout)
	stderr := strings.ReplaceAll(string(res.Stderr), res.Dir+"/", "")
	var runErr error
	switch res.Status {
	case sandbox.StatusOK:
	case sandbox.StatusTimeout, sandbox.StatusCPULimit:
		stderr = appendLine(stderr, fmt.Sprintf("TimeoutError: the code ran longer than the %v limit and was stopped", p.cfg.Timeout))
		runErr = fmt.Errorf("python: timed out after %v", p.cfg.Timeout)
	case sandbox.StatusMemoryLimit:
		stderr = appendLine(stderr, "MemoryError: the code used more than 512 MiB and was stopped")
		runErr = errors.New("python: memory limit")
	case sandbox.StatusOutputLimit:
		runErr = nil // the output is cut below; the run itself was fine so far
	default:
		runErr = fmt.Errorf("python: exit code %d%s", res.ExitCode, signalText(res.Signal))
	}
	if p.cfg.StderrLastLine {
		stderr = lastLine(stderr)
	}
	text := strings.TrimRight(stdout, "\n")
	if strings.TrimSpace(stderr) != "" {
		text += "\n" + strings.TrimRight(stderr, "\n")
	}
	text = truncate(text, p.cfg.MaxOutput, res.Truncated)
	return "Code execution result: " + text + "\n", runErr
}

// execute runs code as main.py: forked from the warm interpreter, or in a
// fresh process when there is none or it failed during the call.
func (p *Python) execute(ctx context.Context, code string) (sandbox.Result, error) {
	lim := sandbox.Limits{
		Wall:        p.cfg.Timeout,
		CPU:         p.cfg.Timeout,
		MemoryBytes: 512 << 20,
		// Keep more than is shown, so that the marker can say output was cut.
		OutputBytes: int64(max(4*p.cfg.MaxOutput, 64<<10)),
	}
	if p.server != nil && !p.cold.Load() {
		res, err := p.server.Run(ctx, []byte(code), nil, lim)
		if err == nil || ctx.Err() != nil {
			return res, err
		}
		if errors.Is(err, sandbox.ErrServerStart) {
			p.cold.Store(true)
		}
	}
	return sandbox.Run(ctx, sandbox.Spec{
		Cmd:    []string{p.exe, "-I", "main.py"},
		Files:  map[string][]byte{"main.py": []byte(code)},
		Limits: lim,
	})
}

func signalText(sig string) string {
	if sig == "" {
		return ""
	}
	return " (" + sig + ")"
}

func appendLine(s, line string) string {
	if s != "" && !strings.HasSuffix(s, "\n") {
		s += "\n"
	}
	return s + line + "\n"
}

func lastLine(s string) string {
	s = strings.TrimRight(s, "\n")
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// truncate cuts s to at most n bytes (on a rune boundary) and appends a
// marker when it was cut here or earlier (cut).
func truncate(s string, n int, cut bool) string {
	if len(s) <= n && !cut {
		return s
	}
	total := len(s)
	if len(s) > n {
		s = s[:n]
		// Drop a rune cut in two at the end.
		for len(s) > 0 {
			if r, size := utf8.DecodeLastRuneInString(s); r != utf8.RuneError || size > 1 {
				break
			}
			s = s[:len(s)-1]
		}
	}
	if cut {
		return s + fmt.Sprintf("\n[output truncated to %d bytes]", len(s))
	}
	return s + fmt.Sprintf("\n[output truncated: %d of %d bytes shown]", len(s), total)
}

// SampleCall draws a small, always valid program that prints a sum,
// difference or product of two numbers: two different ones of the task's
// numbers (in either order) when it has two or more, its one number twice
// when it has one, two random ones otherwise; in either block format.
func (p *Python) SampleCall(r *rand.Rand, task string) string {
	a, b := fmt.Sprint(2+r.IntN(98)), fmt.Sprint(2+r.IntN(98))
	switch nums := taskNumbers(task); len(nums) {
	case 0:
	case 1:
		a, b = nums[0], nums[0]
	default:
		i, j := r.IntN(len(nums)), r.IntN(len(nums)-1)
		if j >= i {
			j++
		}
		a, b = nums[i], nums[j]
	}
	op := [...]string{"+", "-", "*"}[r.IntN(3)]
	if r.IntN(2) == 0 {
		return fmt.Sprintf("<python>print(%s %s %s)</python>", a, op, b)
	}
	return fmt.Sprintf("```python\nprint(%s %s %s)\n```", a, op, b)
}
