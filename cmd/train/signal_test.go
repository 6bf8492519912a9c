package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/envs/builtin"
	"github.com/gemgo/gemgo/envs/remote"
	"github.com/gemgo/gemgo/internal/cli"
	"github.com/gemgo/gemgo/internal/stalltest"
)

// childArgs, in the environment, makes the test binary run the command's
// main with these arguments (JSON): the signal tests run train as a real
// process.
const childArgs = "GEMGO_TRAIN_TEST_ARGS"

func TestMain(m *testing.M) {
	if a, ok := os.LookupEnv(childArgs); ok {
		var args []string
		if err := json.Unmarshal([]byte(a), &args); err != nil {
			panic(err)
		}
		os.Args = append([]string{"train"}, args...)
		main()
		return
	}
	os.Exit(m.Run())
}

// stopBound is how long train may take to exit after SIGINT while it
// waits on a silent env server. Before the fix it never did (a dial with
// no timeout; reads that ignored the interrupt until the server woke up);
// the fixed command exits in well under a second, and 10 s keeps a busy
// machine from making the tests flake.
const stopBound = 10 * time.Second

// child is train running as a process.
type child struct {
	cmd    *exec.Cmd
	lines  chan string // stdout, line by line
	stderr bytes.Buffer
	done   chan struct{} // closed when the process has ended
}

func startChild(t *testing.T, args ...string) *child {
	t.Helper()
	a, err := json.Marshal(args)
	require.NoError(t, err)
	c := &child{cmd: exec.Command(os.Args[0]), lines: make(chan string, 1000), done: make(chan struct{})}
	c.cmd.Env = append(os.Environ(), childArgs+"="+string(a))
	c.cmd.Stderr = &c.stderr
	out, err := c.cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, c.cmd.Start())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			select {
			case c.lines <- sc.Text():
			default: // nobody is waiting for more
			}
		}
	}()
	go func() {
		wg.Wait()
		_ = c.cmd.Wait()
		close(c.done)
	}()
	t.Cleanup(func() {
		_ = c.cmd.Process.Kill()
		<-c.done
	})
	return c
}

// waitLine waits for a stdout line that contains s.
func (c *child) waitLine(t *testing.T, s string) {
	t.Helper()
	deadline := time.After(2 * time.Minute)
	for {
		select {
		case l := <-c.lines:
			if strings.Contains(l, s) {
				return
			}
		case <-deadline:
			t.Fatalf("no line with %q on stdout; stderr: %s", s, c.stderr.String())
		}
	}
}

// interrupt sends SIGINT and returns the exit status, failing the test
// when train is still running stopBound later.
func (c *child) interrupt(t *testing.T) int {
	t.Helper()
	return c.signal(t, os.Interrupt)
}

// signal sends sig and returns the exit status, failing the test when
// train is still running stopBound later.
func (c *child) signal(t *testing.T, sig os.Signal) int {
	t.Helper()
	require.NoError(t, c.cmd.Process.Signal(sig))
	select {
	case <-c.done:
		return c.cmd.ProcessState.ExitCode()
	case <-time.After(stopBound):
		t.Fatalf("train still runs %s after %v; stderr: %s", stopBound, sig, c.stderr.String())
		return -1
	}
}

// SIGINT while train dials an env server that accepts and never answers:
// exit 130 at once, no run directory left.
func TestSignalStopsDialToSilentServer(t *testing.T) {
	out := t.TempDir()
	c := startChild(t, "-config", writeConfig(t, tiny), "-out", out, "-set", "env.remote=ws://"+stalltest.Silent(t))
	c.waitLine(t, "run directory")
	time.Sleep(300 * time.Millisecond) // in the dial by now
	assert.Equal(t, cli.ExitInterrupted, c.interrupt(t), c.stderr.String())
	assert.NoDirExists(t, filepath.Join(out, "tiny"))
}

// SIGINT while the env server has gone silent mid-run (as under SIGSTOP):
// train stops at once with its checkpoint saved, instead of waiting for
// the server to answer again.
func TestSignalStopsRunOnStalledServer(t *testing.T) {
	srv, err := remote.NewServer(builtin.Registry(), remote.Config{})
	require.NoError(t, err)
	hs := httptest.NewServer(srv)
	defer hs.Close()
	proxy := stalltest.NewProxy(t, strings.TrimPrefix(hs.URL, "http://"))
	out := t.TempDir()
	c := startChild(t, "-config", writeConfig(t, tiny), "-out", out, "-set", "iterations=100000", "-set", "eval.every=0",
		"-set", "env.remote=ws://"+proxy.Addr())
	c.waitLine(t, "iter=2/")
	proxy.Stall()
	time.Sleep(300 * time.Millisecond) // waiting on the server by now
	assert.Equal(t, cli.ExitInterrupted, c.interrupt(t), c.stderr.String())
	assert.Contains(t, c.stderr.String(), "train: interrupt: stopping at the next step and saving")
	assert.Regexp(t, `interrupted at iteration \d+ \(context canceled\): checkpoint saved; continue with -resume`, c.stderr.String())
	assert.FileExists(t, filepath.Join(out, "tiny", "checkpoint.safetensors"))
}

// A FIFO as warmup.from is refused at once (opening it waited for a
// writer, deaf to SIGINT and SIGTERM), and the run directory made for the
// run is removed.
func TestWarmupFromFIFORefused(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	require.NoError(t, syscall.Mkfifo(fifo, 0o644))
	out := t.TempDir()
	done := make(chan struct{})
	var code int
	var stderr string
	go func() {
		defer close(done)
		code, _, stderr = runCmd("-config", writeConfig(t, tiny), "-out", out, "-set", "warmup.from="+fifo)
	}()
	select {
	case <-done:
	case <-time.After(stopBound):
		t.Fatal("train waits on the FIFO")
	}
	assert.Equal(t, cli.ExitFailed, code)
	assert.Contains(t, stderr, "warmup.from: load checkpoint "+fifo+": a named pipe (FIFO), not a checkpoint file")
	assert.NoDirExists(t, filepath.Join(out, "tiny"))
}

// SIGTERM, like Ctrl-C, stops a run at its next step with status 130 and
// a checkpoint that -resume continues to the end: the finished run's
// metrics hold every iteration exactly once, in order.
func TestSIGTERMSavesResumableCheckpoint(t *testing.T) {
	const iterations = 40 // far more than a child can run between the first line and the signal
	out := t.TempDir()
	c := startChild(t, "-config", writeConfig(t, tiny), "-out", out, "-set", "iterations=40", "-set", "eval.every=0")
	c.waitLine(t, "iter=1/40")
	code := c.signal(t, syscall.SIGTERM)
	require.Equal(t, cli.ExitInterrupted, code, c.stderr.String())
	assert.Contains(t, c.stderr.String(), "train: terminated: stopping at the next step and saving (once more to exit at once)")
	m := regexp.MustCompile(`interrupted at iteration (\d+) \(context canceled\): checkpoint saved; continue with -resume`).FindStringSubmatch(c.stderr.String())
	require.NotNil(t, m, c.stderr.String())
	stopped, err := strconv.Atoi(m[1])
	require.NoError(t, err)
	require.Less(t, stopped, iterations)
	t.Logf("stopped after iteration %d", stopped)

	dir := filepath.Join(out, "tiny")
	code, stdout, stderr := runCmd("-resume", dir)
	require.Equal(t, cli.ExitOK, code, stderr)
	assert.Contains(t, stdout, "iter=40/40")
	assert.NotContains(t, stdout, fmt.Sprintf("iter=%d/40 ", stopped), "the resumed run starts after the checkpoint")
	assert.Contains(t, stdout, "done in")
	data, err := os.ReadFile(filepath.Join(dir, "metrics.jsonl"))
	require.NoError(t, err)
	var its []int
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var row struct {
			Iteration int `json:"iteration"`
		}
		require.NoError(t, json.Unmarshal([]byte(line), &row), line)
		its = append(its, row.Iteration)
	}
	want := make([]int, iterations+1) // row 0: the policy before training
	for i := range want {
		want[i] = i
	}
	assert.Equal(t, want, its)
}
