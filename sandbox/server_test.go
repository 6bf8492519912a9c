package sandbox

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// newServer returns a server of the tests' interpreter under iso, closed
// at the end of the test.
func newServer(t *testing.T, iso Isolation, recycle int) *PythonServer {
	t.Helper()
	s := NewPythonServerWith(python(t), iso, recycle)
	t.Cleanup(func() { assert.NoError(t, s.Close()) })
	return s
}

// serverRun runs code in s and fails the test on an error.
func serverRun(t *testing.T, s *PythonServer, code, stdin string, lim Limits) Result {
	t.Helper()
	res, err := s.Run(context.Background(), []byte(code), []byte(stdin), lim)
	require.NoError(t, err, code)
	return res
}

// stripDir is stderr without the call's directory, as the Python tool
// shows it.
func stripDir(r Result) string { return strings.ReplaceAll(string(r.Stderr), r.Dir+"/", "") }

// serverCases are programs whose every observable result a warm call
// must reproduce.
var serverCases = []struct{ name, code, stdin string }{
	{"print", "print(4821 * 317)", ""},
	{"stdin", "import sys\nprint(sys.stdin.read().upper(), end='')", "hello\nwörld\n"},
	{"input at EOF", "print(input())", ""},
	{"traceback", "print('before')\ndef f(x):\n    return 1 / x\nf(0)", ""},
	{"chained exceptions", "try:\n    {}['k']\nexcept KeyError as e:\n    raise ValueError('v') from e", ""},
	{"syntax error", "x = (\n", ""},
	{"stderr write", "import sys\nprint('out')\nsys.stderr.write('warn\\n')", ""},
	{"exit 3", "print('partial')\nexit(3)", ""},
	{"sys.exit message", "import sys\nsys.exit('fatal: message')", ""},
	{"exit 256", "raise SystemExit(256)", ""},
	{"unicode", "print('é∑😀 ünï')\nimport sys\nprint('ß', file=sys.stderr)", ""},
	{"deep recursion", "def f(n):\n    return f(n + 1)\nf(0)", ""},
	{"recursion depth", "def f(n):\n    try:\n        return f(n + 1)\n    except RecursionError:\n        return n\nprint(f(0))", ""},
	{"keyboard interrupt", "raise KeyboardInterrupt", ""},
	{"thread outlives main", "import threading, time\ndef w():\n    time.sleep(0.1)\n    print('thread')\nthreading.Thread(target=w).start()\nprint('main')", ""},
	{"atexit", "import atexit\natexit.register(print, 'bye')\nprint('hi', end='')", ""},
	{"__del__ at exit", "class A:\n    def __del__(self):\n        print('deleted')\na = A()\nprint('made')", ""},
	{"unflushed writer", "out = open(1, 'w')\nout.write('through fd 1\\n')", ""},
	{"modules", "import sys\nprint(sorted(sys.modules))", ""},
	{"globals", "print(sorted((k, type(v).__name__) for k, v in globals().items()))", ""},
	{"argv and path", "import sys, os\nprint(sys.argv, sys.path, sys.flags, __file__ == os.path.abspath('main.py'))", ""},
	{"environment", "import os\nprint(sorted(os.environ), os.environ['HOME'] == os.getcwd(), os.listdir('.'))", ""},
	{"memory bomb", "x = bytearray(1 << 31)", ""},
}

// The server's answer to a program is Run's for `python3 -I main.py`:
// status, exit code, signal, stdout, and stderr once the directory is
// stripped; with NoSite, Run's for `python3 -I -S main.py`.
func TestServerMatchesRun(t *testing.T) {
	t.Parallel()
	for _, noSite := range []bool{false, true} {
		t.Run(fmt.Sprintf("noSite=%v", noSite), func(t *testing.T) {
			t.Parallel()
			py := python(t)
			s := newServer(t, Detect(), 0)
			cmd := []string{py, "-I", "main.py"}
			if noSite {
				s.NoSite()
				cmd = []string{py, "-I", "-S", "main.py"}
			}
			for _, c := range serverCases {
				fresh, err := Run(context.Background(), Spec{Cmd: cmd, Files: map[string][]byte{"main.py": []byte(c.code)}, Stdin: []byte(c.stdin), Limits: fast})
				require.NoError(t, err)
				warm := serverRun(t, s, c.code, c.stdin, fast)
				assert.Equal(t, fresh.Status, warm.Status, c.name)
				assert.Equal(t, fresh.ExitCode, warm.ExitCode, c.name)
				assert.Equal(t, fresh.Signal, warm.Signal, c.name)
				assert.Equal(t, string(fresh.Stdout), string(warm.Stdout), c.name)
				assert.Equal(t, stripDir(fresh), stripDir(warm), c.name)
			}
		})
	}
}

// Nothing a call does to the interpreter, its directory or its processes
// reaches the next call of the same zygote.
func TestServerCallsAreIsolated(t *testing.T) {
	t.Parallel()
	s := newServer(t, Detect(), 0)
	mark := fmt.Sprintf("%d.%d", 40+os.Getpid()%50, time.Now().UnixNano()%1000)
	first := `import builtins, json, os, subprocess, sys
x = 42
json.dumps = None
os.getcwd = None
builtins.len = lambda s: -1
sys.modules['math'].pi = 3
sys.path.append('/nowhere')
open('left.txt', 'w').write('x')
open('../planted.txt', 'w').write('x')
subprocess.Popen(['sleep', 'MARK'])
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        os.execvp('sleep', ['sleep', 'MARK'])
    os._exit(0)
os.wait()
print('first', os.getpid())`
	second := `import json, math, os, sys
print('x' in globals(), json.dumps([1]), callable(os.getcwd), len('ab'), math.pi > 3.1, '/nowhere' in sys.path)
print(sorted(os.listdir('.')), sorted(os.listdir('..')))`
	res := serverRun(t, s, strings.ReplaceAll(first, "MARK", mark), "", fast)
	require.Equal(t, StatusOK, res.Status, "stderr: %s", res.Stderr)
	assert.Empty(t, processesWith(mark), "the call's children, even one that left its process group, do not outlive it")
	res = serverRun(t, s, second, "", fast)
	require.Equal(t, StatusOK, res.Status, "stderr: %s", res.Stderr)
	assert.Equal(t, "False [1] True 2 True False\n['main.py'] ['run-2']\n", string(res.Stdout),
		"globals, modules, builtins, sys.path and files of call 1 are gone")
}

// The wall limit holds, and the zygote is replaced after a call that hit
// it: the next call runs normally.
func TestServerTimeoutThenNormal(t *testing.T) {
	t.Parallel()
	s := newServer(t, Detect(), 0)
	lim := fast
	lim.Wall, lim.CPU = time.Second, 10*time.Second
	serverRun(t, s, "pass", "", lim) // started: the limit below is the call's alone
	start := time.Now()
	res := serverRun(t, s, "print('spin', flush=True)\nwhile True:\n    pass", "", lim)
	took := time.Since(start)
	assert.Equal(t, StatusTimeout, res.Status)
	assert.Equal(t, "spin\n", string(res.Stdout), "output before the kill is kept")
	assert.Equal(t, "killed", res.Signal)
	assert.Less(t, took, lim.Wall+500*time.Millisecond, "ends within the limit + 0.5 s")
	assert.GreaterOrEqual(t, res.Wall, lim.Wall)
	assert.Positive(t, res.CPU, "the CPU time of a program killed at the wall limit is reported (any amount: on a loaded machine a 1 s spin may get only tens of ms)")
	s.mu.Lock()
	assert.Nil(t, s.z, "recycled after the timeout")
	s.mu.Unlock()
	res = serverRun(t, s, "print(6 * 7)", "", lim)
	assert.Equal(t, StatusOK, res.Status)
	assert.Equal(t, "42\n", string(res.Stdout))
}

// zygotePid is the host pid of s's interpreter: the python process below
// the sandbox's first process.
func zygotePid(t *testing.T, s *PythonServer) int {
	t.Helper()
	s.mu.Lock()
	root := s.z.sb.cmd.Process.Pid
	s.mu.Unlock()
	parent, comm := map[int]int{}, map[int]string{}
	eachProc("stat", func(pid int, data string) bool {
		open, end := strings.IndexByte(data, '('), strings.LastIndexByte(data, ')')
		if open < 0 || end < open {
			return false
		}
		f := strings.Fields(data[end+1:])
		if len(f) > 1 {
			parent[pid], _ = strconv.Atoi(f[1])
			comm[pid] = data[open+1 : end]
		}
		return false
	})
	for pid := range parent {
		for p := pid; p > 1; p = parent[p] {
			if p == root && strings.HasPrefix(comm[pid], "python") {
				return pid
			}
		}
	}
	t.Fatalf("no python process below %d", root)
	return 0
}

// A zygote killed from outside is replaced at the next call, whether it
// is gone by then or still dying.
func TestServerZygoteKilled(t *testing.T) {
	t.Parallel()
	s := newServer(t, Detect(), 0)
	for _, wait := range []bool{true, false} {
		res := serverRun(t, s, "print('up')", "", fast)
		require.Equal(t, "up\n", string(res.Stdout))
		s.mu.Lock()
		done := s.z.done
		s.mu.Unlock()
		require.NoError(t, syscall.Kill(zygotePid(t, s), syscall.SIGKILL))
		if wait {
			select {
			case <-done:
			case <-time.After(slack):
				t.Fatal("the sandbox did not end with its interpreter")
			}
		}
		res = serverRun(t, s, "print('again')", "", fast)
		assert.Equal(t, StatusOK, res.Status, "wait=%v", wait)
		assert.Equal(t, "again\n", string(res.Stdout), "wait=%v", wait)
	}
}

// The limits classify as Run's do.
func TestServerLimits(t *testing.T) {
	t.Parallel()
	if Detect().Limits == LimitsNone {
		t.Skip("no prlimit or sh here: the CPU and memory limits cannot be set")
	}
	s := newServer(t, Detect(), 0)
	lim := fast
	lim.MemoryBytes, lim.CPU = 512<<20, 10*time.Second
	res := serverRun(t, s, "x = bytearray(2 << 30)\nprint(len(x))", "", lim)
	assert.Equal(t, StatusMemoryLimit, res.Status)
	assert.Contains(t, string(res.Stderr), "MemoryError")
	assert.Empty(t, res.Stdout)

	res = serverRun(t, s, "while True:\n    pass", "", fast)
	assert.Equal(t, StatusCPULimit, res.Status, "1 s of CPU under a 120 s wall limit")
	assert.GreaterOrEqual(t, res.CPU, 500*time.Millisecond)

	out := fast
	out.OutputBytes = 5000
	res = serverRun(t, s, "while True:\n    print('x' * 999)", "", out)
	assert.Equal(t, StatusOutputLimit, res.Status)
	assert.True(t, res.Truncated)
	assert.Len(t, res.Stdout, 5000)
	assert.Less(t, res.Wall, out.Wall, "killed at the limit, not at the timeout")

	res = serverRun(t, s, "import sys\nprint(len(sys.stdin.read()))", strings.Repeat("z", 300<<10), fast)
	assert.Equal(t, "307200\n", string(res.Stdout), "stdin larger than a pipe's buffer")
}

// Every recycle calls a fresh zygote takes over.
func TestServerRecycles(t *testing.T) {
	t.Parallel()
	s := newServer(t, Detect(), 3)
	var seen []*zygote
	for range 7 {
		s.mu.Lock()
		seen = append(seen, s.z)
		s.mu.Unlock()
		serverRun(t, s, "print(1)", "", fast)
	}
	assert.Nil(t, seen[0], "nothing starts before the first call")
	assert.True(t, seen[1] == seen[2] && seen[1] != nil, "calls 1-3 share a zygote")
	assert.Nil(t, seen[3], "retired after 3 calls")
	assert.True(t, seen[5] == seen[4] && seen[4] != nil)
	other := fast
	other.MemoryBytes = 200 << 20
	serverRun(t, s, "print(1)", "", other)
	s.mu.Lock()
	assert.Equal(t, other.withDefaults(), s.z.lim, "a call under other limits gets a zygote of its own")
	s.mu.Unlock()
}

// Each isolation mode runs the server: a call, a child left behind, a
// timeout and the call after it.
func TestServerEachIsolation(t *testing.T) {
	t.Parallel()
	modes := append(Available(), Isolation{Network: NetNone, Limits: LimitsNone, UID: os.Getuid()})
	for i, iso := range modes {
		t.Run(fmt.Sprintf("%d-%s-pid=%v", i, iso.Network, iso.PID), func(t *testing.T) {
			s := newServer(t, iso, 0)
			res := serverRun(t, s, "print(input()[::-1])", "abc", fast)
			assert.Equal(t, "cba\n", string(res.Stdout), "stderr: %s", res.Stderr)
			assert.Equal(t, iso, res.Isolation)
			mark := fmt.Sprintf("%d.%d%d", 30+os.Getpid()%50, i, time.Now().UnixNano()%1000)
			res = serverRun(t, s, "import subprocess\nsubprocess.Popen(['sleep', '"+mark+"'])\nprint('ok')", "", fast)
			assert.Equal(t, "ok\n", string(res.Stdout), "stderr: %s", res.Stderr)
			assert.Empty(t, processesWith(mark), "the background child is killed with the call")
			lim := fast
			lim.Wall, lim.CPU = time.Second, 10*time.Second
			res = serverRun(t, s, "import time\ntime.sleep(30)", "", lim)
			assert.Equal(t, StatusTimeout, res.Status)
			res = serverRun(t, s, "print('after')", "", fast)
			assert.Equal(t, "after\n", string(res.Stdout))
		})
	}
}

// A cancelled context ends the call with its error, and the server
// serves the next call.
func TestServerContextCancelled(t *testing.T) {
	t.Parallel()
	s := newServer(t, Detect(), 0)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	_, err := s.Run(ctx, []byte("import time\ntime.sleep(30)"), nil, fast)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	res := serverRun(t, s, "print('next')", "", fast)
	assert.Equal(t, "next\n", string(res.Stdout))
}

// Calls from several goroutines are served one at a time (run with -race).
func TestServerConcurrentCalls(t *testing.T) {
	t.Parallel()
	s := newServer(t, Detect(), 4)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for i := range 8 {
		wg.Go(func() {
			res, err := s.Run(context.Background(), []byte("print(int(input()) * 1000)"), []byte(strconv.Itoa(i)), fast)
			if err == nil && string(res.Stdout) != strconv.Itoa(i*1000)+"\n" {
				err = fmt.Errorf("call %d: %q %q", i, res.Stdout, res.Stderr)
			}
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		assert.NoError(t, err)
	}
}

func TestServerStartAndClose(t *testing.T) {
	t.Parallel()
	_, err := NewPythonServer("no-such-python-gemgo", 0).Run(context.Background(), []byte("print(1)"), nil, fast)
	assert.ErrorIs(t, err, ErrServerStart)
	bad := NewPythonServer("false", 0)
	assert.ErrorIs(t, bad.Start(context.Background(), fast), ErrServerStart, "a program that exits at once")
	assert.NoError(t, bad.Close())

	s := NewPythonServerWith(python(t), Detect(), 0)
	require.NoError(t, s.Start(context.Background(), fast))
	s.mu.Lock()
	dir := s.z.dir
	s.mu.Unlock()
	assert.DirExists(t, dir)
	require.NoError(t, s.Close())
	_, err = os.Stat(dir)
	assert.True(t, errors.Is(err, os.ErrNotExist), "the work directory goes with the zygote: %v", err)
	_, err = s.Run(context.Background(), []byte("print(1)"), nil, fast)
	assert.ErrorContains(t, err, "after Close")
	_, err = s.Run(context.Background(), nil, nil, Limits{Wall: -1})
	assert.ErrorContains(t, err, "Limits.Wall")
}
