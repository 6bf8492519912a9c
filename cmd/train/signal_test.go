package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/envs/builtin"
	"github.com/gemgo/gemgo/envs/remote"
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
	require.NoError(t, c.cmd.Process.Signal(os.Interrupt))
	select {
	case <-c.done:
		return c.cmd.ProcessState.ExitCode()
	case <-time.After(stopBound):
		t.Fatalf("train still runs %s after SIGINT; stderr: %s", stopBound, c.stderr.String())
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
	assert.Equal(t, 130, c.interrupt(t), c.stderr.String())
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
	assert.Equal(t, 130, c.interrupt(t), c.stderr.String())
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
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, "warmup.from: load checkpoint "+fifo+": a named pipe (FIFO), not a checkpoint file")
	assert.NoDirExists(t, filepath.Join(out, "tiny"))
}

// The first SIGINT or SIGTERM cancels the run and says a second exits at
// once; the second exits with status 130 without waiting for the run.
func TestSecondInterruptExitsAtOnce(t *testing.T) {
	sigs := make(chan os.Signal, 2)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stderr syncBuffer
	exited := make(chan int, 1)
	go watchInterrupts(sigs, cancel, &stderr, func(code int) { exited <- code })

	sigs <- os.Interrupt
	<-ctx.Done()
	select {
	case <-exited:
		t.Fatal("the first interrupt must not exit: the run saves its checkpoint")
	case <-time.After(100 * time.Millisecond):
	}
	assert.Contains(t, stderr.String(), "once more to exit at once")

	sigs <- syscall.SIGTERM
	select {
	case code := <-exited:
		assert.Equal(t, 130, code)
	case <-time.After(stopBound):
		t.Fatal("the second signal did not exit")
	}
	assert.Contains(t, stderr.String(), "terminated again: exiting now")
}

// syncBuffer is a bytes.Buffer safe for one writer and one reader.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
