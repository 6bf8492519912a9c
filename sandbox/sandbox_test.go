package sandbox

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// python returns the interpreter the tests run, or skips with the
// install line: the one PythonFor chooses for DefaultPython under the
// weakest mode of Available, which has the uid setup of every mode and no
// bwrap to mount an interpreter in. That is PATH's python3, or where runs
// get a uid of their own that cannot reach it (a root-only pyenv, say),
// /usr/bin/python3: one every mode can run.
func python(t *testing.T) string {
	t.Helper()
	all := Available()
	p, _, err := PythonFor(DefaultPython, all[len(all)-1])
	if err != nil {
		t.Skipf("these tests run real python3 programs: %v", err)
	}
	return p
}

// runPy runs code as main.py with stdin under lim.
func runPy(t *testing.T, code, stdin string, lim Limits) Result {
	t.Helper()
	res, err := Run(context.Background(), pySpec(python(t), code, stdin, lim))
	require.NoError(t, err)
	return res
}

func pySpec(py, code, stdin string, lim Limits) Spec {
	return Spec{
		Cmd:    []string{py, "-I", "-S", "main.py"},
		Files:  map[string][]byte{"main.py": []byte(code)},
		Stdin:  []byte(stdin),
		Limits: lim,
	}
}

// fast are the limits of the bad-program tests: a bad program ends at its
// own limit (1 s of CPU, 128 MiB, 64 KiB of output) long before the wall
// limit, which is generous so that a loaded machine cannot turn a CPU or
// memory verdict into a timeout.
var fast = Limits{Wall: 120 * time.Second, CPU: time.Second, MemoryBytes: 128 << 20, OutputBytes: 64 << 10}

// slack bounds how long a kill may take on a loaded machine.
const slack = 8 * time.Second

func TestDetect(t *testing.T) {
	iso := Detect()
	t.Logf("isolation here: %s", iso)
	assert.Contains(t, []string{NetBwrap, NetNamespace, NetUserNamespace, NetNone}, iso.Network)
	assert.Contains(t, []string{LimitsPrlimit, LimitsUlimit, LimitsNone}, iso.Limits)
	assert.Equal(t, iso.Network == NetNamespace || iso.Network == NetUserNamespace, iso.cloneflags != 0, "clone flags are set exactly in namespace mode")
	assert.Equal(t, iso.Network == NetBwrap, iso.bwrap != "", "bwrap is used exactly in bwrap mode")
	assert.Equal(t, iso.NetworkIsolated(), !strings.Contains(iso.String(), "NOT isolated ("), iso.String())
	assert.Equal(t, iso, Detect(), "cached")
	all := Available()
	assert.Equal(t, available(), all, "cached")
	assert.Equal(t, iso, all[0], "the strongest that works")
	assert.Equal(t, NetNone, all[len(all)-1].Network, "the last has no namespaces")
	if _, err := exec.LookPath("bwrap"); err == nil && iso.Network != NetBwrap {
		t.Logf("bwrap is installed but does not work here")
	}
	assert.Equal(t, iso.Network == NetBwrap, iso.ReadOnlyFS)
}

// TestEachIsolation runs the same programs under every isolation that
// works here (bwrap, namespaces, none), so that each path is tested where
// it is available, whichever Detect prefers.
func TestEachIsolation(t *testing.T) {
	t.Parallel()
	py := python(t)
	port := fmt.Sprint(listen(t))
	outside := filepath.Join(t.TempDir(), "outside.txt")
	writeOutside := fmt.Sprintf("open(%q, 'w').write('x')\nprint('wrote')", outside)
	for i, iso := range Available() {
		t.Run(fmt.Sprintf("%d-%s-pid=%v", i, iso.Network, iso.PID), func(t *testing.T) {
			t.Logf("%s", iso)
			res, err := run(context.Background(), pySpec(py, "print(input()[::-1])", "abc", fast), iso)
			require.NoError(t, err)
			assert.Equal(t, "cba\n", string(res.Stdout), "stderr: %s", res.Stderr)

			res, err = run(context.Background(), pySpec(py, connectPy, port, fast), iso)
			require.NoError(t, err)
			if iso.NetworkIsolated() {
				assert.True(t, strings.HasPrefix(string(res.Stdout), "refused"), "stdout: %s", res.Stdout)
			} else {
				assert.Equal(t, "connected hi\n", string(res.Stdout))
			}

			res, err = run(context.Background(), pySpec(py, writeOutside, "", fast), iso)
			require.NoError(t, err)
			_, statErr := os.Stat(outside)
			switch {
			case iso.ReadOnlyFS || iso.Unprivileged:
				// The caller's temp dir is not the program's to write:
				// read-only (bwrap) or not its uid's (a root caller).
				assert.Equal(t, StatusRuntimeError, res.Status)
				assert.Regexp(t, "Read-only file system|Permission denied", string(res.Stderr))
				assert.True(t, errors.Is(statErr, os.ErrNotExist))
				res, err = run(context.Background(), pySpec(py, "open('/etc/gemgo-probe', 'w')", "", fast), iso)
				require.NoError(t, err)
				assert.Regexp(t, "Read-only file system|Permission denied", string(res.Stderr))
				_, statErr = os.Stat("/etc/gemgo-probe")
				assert.True(t, errors.Is(statErr, os.ErrNotExist))
			default:
				assert.Equal(t, "wrote\n", string(res.Stdout), "documented: the file system is not isolated")
				assert.NoError(t, statErr)
				require.NoError(t, os.Remove(outside))
			}

			// The limits: once per process layout (bwrap; pid 1 of a
			// namespace; a plain child), to keep the test short.
			if iso.Limits == LimitsNone || iso.userns || (iso.cloneflags != 0 && !iso.PID) {
				return
			}
			res, err = run(context.Background(), pySpec(py, "while True:\n    pass", "", fast), iso)
			require.NoError(t, err)
			assert.Equal(t, StatusCPULimit, res.Status, "an infinite loop is stopped by the CPU limit")
			assert.Equal(t, "killed", res.Signal)
			assert.Equal(t, -1, res.ExitCode)
			assert.GreaterOrEqual(t, res.CPU, 500*time.Millisecond)
			assert.Less(t, res.Wall, fast.Wall)
			lim := fast
			lim.CPU = 10 * time.Second
			res, err = run(context.Background(), pySpec(py, "x = bytearray(1 << 31)", "", lim), iso)
			require.NoError(t, err)
			assert.Equal(t, StatusMemoryLimit, res.Status)
		})
	}
}

func TestRunEcho(t *testing.T) {
	res := runPy(t, "import sys\nprint(sys.stdin.read().upper(), end='')\nprint('err', file=sys.stderr)", "hello\nworld\n", fast)
	assert.Equal(t, StatusOK, res.Status)
	assert.True(t, res.OK())
	assert.Equal(t, 0, res.ExitCode)
	assert.Equal(t, "HELLO\nWORLD\n", string(res.Stdout))
	assert.Equal(t, "err\n", string(res.Stderr))
	assert.False(t, res.Truncated)
	assert.Equal(t, Detect(), res.Isolation)
}

func TestRuntimeError(t *testing.T) {
	res := runPy(t, "import sys\nprint('partial')\nsys.exit(3)", "", fast)
	assert.Equal(t, StatusRuntimeError, res.Status)
	assert.Equal(t, 3, res.ExitCode)
	assert.Equal(t, "partial\n", string(res.Stdout))

	res = runPy(t, "raise ValueError('boom')", "", fast)
	assert.Equal(t, StatusRuntimeError, res.Status)
	assert.Equal(t, 1, res.ExitCode)
	assert.Contains(t, string(res.Stderr), "ValueError: boom")
}

func TestSleepStoppedByWallLimit(t *testing.T) {
	t.Parallel()
	lim := fast
	lim.Wall = 5 * time.Second // room for python to start on a loaded machine
	res := runPy(t, "import time\nprint('start', flush=True)\ntime.sleep(60)", "", lim)
	assert.Equal(t, StatusTimeout, res.Status)
	assert.Equal(t, "start\n", string(res.Stdout), "output before the kill is kept")
	assert.Less(t, res.Wall, lim.Wall+slack, "killed at the limit, not after the 60 s sleep")
	assert.Equal(t, -1, res.ExitCode)
	assert.Equal(t, "killed", res.Signal)
}

func TestChildrenDoNotOutliveTheRun(t *testing.T) {
	t.Parallel()
	// The child holds stdout open and the grandchild leaves the process
	// group: Run must still return promptly.
	code := `import subprocess, sys
subprocess.Popen(['sleep', '30'])
subprocess.Popen(['sleep', '30'], start_new_session=True)
print('parent done')`
	res := runPy(t, code, "", fast)
	assert.Equal(t, StatusOK, res.Status, "stderr: %s", res.Stderr)
	assert.Equal(t, "parent done\n", string(res.Stdout))
	assert.Less(t, res.Wall, slack, "not after the children's 30 s sleep")
}

func TestMemoryBombStopped(t *testing.T) {
	t.Parallel()
	if Detect().Limits == LimitsNone {
		t.Skip("no prlimit or sh here: the memory limit cannot be set")
	}
	for name, code := range map[string]string{
		"one block": "x = bytearray(1 << 31)\nprint(len(x))",
		"growing":   "a = []\nwhile True:\n    a.append(bytearray(1 << 20))",
	} {
		t.Run(name, func(t *testing.T) {
			lim := fast
			lim.CPU = 10 * time.Second // touching 128 MiB takes CPU time
			res := runPy(t, code, "", lim)
			assert.Equal(t, StatusMemoryLimit, res.Status, "stderr: %s", res.Stderr)
			assert.Contains(t, string(res.Stderr), "MemoryError")
			assert.Empty(t, res.Stdout)
		})
	}
}

func TestOutputFloodTruncated(t *testing.T) {
	t.Parallel()
	for name, code := range map[string]string{
		"stdout": "while True:\n    print('x' * 999)",
		"stderr": "import sys\nwhile True:\n    print('y' * 999, file=sys.stderr)",
	} {
		t.Run(name, func(t *testing.T) {
			lim := fast
			lim.OutputBytes = 5000
			res := runPy(t, code, "", lim)
			assert.Equal(t, StatusOutputLimit, res.Status)
			assert.True(t, res.Truncated)
			assert.Less(t, res.Wall, lim.Wall, "killed at the limit, not at the timeout")
			out := res.Stdout
			if name == "stderr" {
				out = res.Stderr
			}
			require.Len(t, out, 5000)
			assert.Equal(t, strings.Repeat(string(out[0])+"", 999)+"\n", string(out[:1000]))
		})
	}
}

// listen starts a TCP listener on loopback that answers "hi" to each
// connection; it returns the port.
func listen(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			_, _ = c.Write([]byte("hi"))
			c.Close()
		}
	}()
	return ln.Addr().(*net.TCPAddr).Port
}

const connectPy = `import socket, sys
try:
    s = socket.create_connection(('127.0.0.1', int(sys.stdin.read())), timeout=2)
    print('connected', s.recv(2).decode())
except OSError as e:
    print('refused', e)
    sys.exit(1)`

func TestNetworkIsolated(t *testing.T) {
	t.Parallel()
	py := python(t)
	port := listen(t)
	stdin := fmt.Sprint(port)

	// Control: with the network allowed the same program connects, so
	// the failure below is the isolation's doing.
	spec := pySpec(py, connectPy, stdin, fast)
	spec.Network = true
	res, err := Run(context.Background(), spec)
	require.NoError(t, err)
	require.Equal(t, "connected hi\n", string(res.Stdout), "stderr: %s", res.Stderr)

	if !Detect().NetworkIsolated() {
		t.Skipf("no network isolation on this machine (%s): neither CLONE_NEWNET nor a user namespace works", Detect())
	}
	res, err = Run(context.Background(), pySpec(py, connectPy, stdin, fast))
	require.NoError(t, err)
	assert.Equal(t, StatusRuntimeError, res.Status)
	assert.True(t, strings.HasPrefix(string(res.Stdout), "refused"), "stdout: %s", res.Stdout)
}

func TestNoIsolationStillLimits(t *testing.T) {
	t.Parallel()
	// The weakest mode (no namespaces, no rlimits) keeps the wall and
	// output limits, and does let the network through.
	py := python(t)
	none := Isolation{}
	assert.False(t, none.NetworkIsolated())
	res, err := RunWith(context.Background(), pySpec(py, "while True:\n    pass", "", Limits{Wall: time.Second}), none)
	require.NoError(t, err)
	assert.Equal(t, StatusTimeout, res.Status)

	spec := pySpec(py, connectPy, fmt.Sprint(listen(t)), fast)
	res, err = run(context.Background(), spec, none)
	require.NoError(t, err)
	assert.Equal(t, "connected hi\n", string(res.Stdout))
	assert.Contains(t, none.String(), "network: NOT isolated")
}

func TestUlimitFallback(t *testing.T) {
	t.Parallel()
	py := python(t)
	iso := Detect()
	sh, err := lookSh()
	if err != nil {
		t.Skip("no sh on this machine")
	}
	iso.Limits, iso.tool = LimitsUlimit, sh
	res, err := run(context.Background(), pySpec(py, "while True:\n    pass", "", fast), iso)
	require.NoError(t, err)
	assert.Equal(t, StatusCPULimit, res.Status)
	res, err = run(context.Background(), pySpec(py, "x = bytearray(1 << 31)", "", fast), iso)
	require.NoError(t, err)
	assert.Equal(t, StatusMemoryLimit, res.Status)
	res, err = run(context.Background(), pySpec(py, "print(input())", "ok", fast), iso)
	require.NoError(t, err)
	assert.Equal(t, "ok\n", string(res.Stdout))
}

func TestBadProgramsDoNotDisturbGoodOnes(t *testing.T) {
	t.Parallel()
	py := python(t)
	bad := []string{
		"while True:\n    pass",
		"a = []\nwhile True:\n    a.append(bytearray(1 << 20))",
		"while True:\n    print('x' * 999)",
		"import os, time\nfor _ in range(3):\n    os.fork()\ntime.sleep(60)",
	}
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if i%2 == 0 {
				lim := fast
				lim.Wall = 3 * time.Second
				res, err := Run(context.Background(), pySpec(py, bad[i/2], "", lim))
				if err == nil && res.Status == StatusOK {
					err = fmt.Errorf("bad program %d passed", i/2)
				}
				errs <- err
				return
			}
			want := fmt.Sprint(i * 1000)
			res, err := Run(context.Background(), pySpec(py, "print(int(input()) * 1000)", fmt.Sprint(i), fast))
			if err == nil && (res.Status != StatusOK || string(res.Stdout) != want+"\n") {
				err = fmt.Errorf("good program %d: status %s, stdout %q, stderr %q", i, res.Status, res.Stdout, res.Stderr)
			}
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		assert.NoError(t, err)
	}
}

func TestWorkingDirAndEnvironment(t *testing.T) {
	t.Setenv("GEMGO_SECRET", "do-not-leak")
	code := `import os
print(os.getcwd())
print(os.environ.get('HOME'))
print(sorted(k for k in os.environ))
print(open('data/in.txt').read())
open('out.txt', 'w').write('x')`
	spec := pySpec(python(t), code, "", fast)
	spec.Files["data/in.txt"] = []byte("payload")
	spec.Env = []string{"EXTRA=1"}
	res, err := Run(context.Background(), spec)
	require.NoError(t, err)
	require.Equal(t, StatusOK, res.Status, "stderr: %s", res.Stderr)
	lines := strings.Split(string(res.Stdout), "\n")
	require.GreaterOrEqual(t, len(lines), 4)
	dir := lines[0]
	assert.Contains(t, dir, "gemgo-sandbox-")
	assert.Equal(t, dir, res.Dir)
	assert.Equal(t, dir, lines[1], "HOME is the working dir")
	assert.Equal(t, "['EXTRA', 'HOME', 'LANG', 'LC_ALL', 'MALLOC_ARENA_MAX', 'PATH', 'PWD', 'TMPDIR']", lines[2], "only the minimal environment")
	assert.Equal(t, "payload", lines[3])
	_, err = os.Stat(dir)
	assert.True(t, errors.Is(err, os.ErrNotExist), "working dir removed after the run: %v", err)
}

func TestBadSpec(t *testing.T) {
	ctx := context.Background()
	_, err := Run(ctx, Spec{})
	assert.ErrorContains(t, err, "empty Spec.Cmd")
	_, err = Run(ctx, Spec{Cmd: []string{"no-such-program-gemgo"}})
	assert.ErrorContains(t, err, `"no-such-program-gemgo" not found`)
	_, err = Run(ctx, Spec{Cmd: []string{"true"}, Files: map[string][]byte{"../escape": nil}})
	assert.ErrorContains(t, err, "relative path inside")
	_, err = Run(ctx, Spec{Cmd: []string{"true"}, Limits: Limits{Wall: -1}})
	assert.ErrorContains(t, err, "Limits.Wall")
	_, err = Run(ctx, Spec{Cmd: []string{"true"}, Limits: Limits{MemoryBytes: -5}})
	assert.ErrorContains(t, err, "Limits.MemoryBytes")
}

func TestContextCancelled(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	_, err := Run(ctx, pySpec(python(t), "import time\ntime.sleep(30)", "", fast))
	assert.ErrorIs(t, err, context.DeadlineExceeded)
}
