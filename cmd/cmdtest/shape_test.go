package cmdtest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/internal/cli"
)

// commands are the commands in cmd/ (TestEveryCommandListed checks it).
var commands = []string{"baselines", "compare", "data", "envserver", "eval", "play", "serve", "toolserver", "train"}

// bin is the directory of the built commands; TestMain fills it.
var bin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "gemgo-cmdtest-")
	if err != nil {
		panic(err)
	}
	bin = dir
	code := m.Run()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

var buildOnce = sync.OnceValue(func() error {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		return err
	}
	args := []string{"build", "-ldflags=-s -w", "-o", bin + string(filepath.Separator)}
	for _, c := range commands {
		args = append(args, "./cmd/"+c)
	}
	cmd := exec.Command("go", args...)
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build: %w\n%s", err, out)
	}
	return openSources(root, args[4:])
})

// openSources opens every Go file of the module that the packages link.
// go test reuses a passing result while the files the test opened are
// unchanged, and it cannot see what go build read: without this, an edit
// of a command would leave the old result in place.
func openSources(root string, pkgs []string) error {
	cmd := exec.Command("go", append([]string{"list", "-deps", "-f", `{{range .GoFiles}}{{$.Dir}}/{{.}}{{"\n"}}{{end}}`}, pkgs...)...)
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("go list: %w", err)
	}
	for _, f := range strings.Fields(string(out)) {
		if !strings.HasPrefix(f, root+string(filepath.Separator)) {
			continue // the standard library and other modules: go test's cache ignores them
		}
		fh, err := os.Open(f)
		if err != nil {
			return err
		}
		_ = fh.Close()
	}
	return nil
}

// built builds every command once and returns the path of name.
func built(t *testing.T, name string) string {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Fatalf("the go command is not on PATH: these tests build the commands with it")
	}
	require.NoError(t, buildOnce())
	return filepath.Join(bin, name)
}

// runBounded is how long one -h or bad-flag run may take: each returns
// in milliseconds, one that ignored the flag would wait on its work
// (training, serving, stdin) for good; a minute keeps a busy machine
// from making the test flake.
const runBounded = time.Minute

// runCmd runs the command name with args, stdin empty, and returns its
// exit status, stdout and stderr.
func runCmd(t *testing.T, name string, args ...string) (int, string, string) {
	t.Helper()
	path := built(t, name) // before the clock starts: building every command takes minutes on a busy machine
	ctx, cancel := context.WithTimeout(context.Background(), runBounded)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Dir = t.TempDir() // nothing a command writes lands in the repository
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	require.NoError(t, ctx.Err(), "%s %q still ran after %s", name, args, runBounded)
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatal(err)
	}
	return cmd.ProcessState.ExitCode(), stdout.String(), stderr.String()
}

// TestEveryCommandListed: commands names every directory of cmd/ that
// holds a main package, so that a new command gets these tests.
func TestEveryCommandListed(t *testing.T) {
	ents, err := os.ReadDir("..")
	require.NoError(t, err)
	var found []string
	for _, e := range ents {
		if _, err := os.Stat(filepath.Join("..", e.Name(), "main.go")); err == nil {
			found = append(found, e.Name())
		}
	}
	slices.Sort(found)
	assert.Equal(t, commands, found)
}

// -h and -help print the usage, a synopsis line then the flags, on stdout
// and nothing on stderr, and exit 0; an unknown flag and a positional
// argument are one line on stderr, nothing on stdout, and exit 2.
func TestHelpAndBadFlags(t *testing.T) {
	for _, name := range commands {
		t.Run(name, func(t *testing.T) {
			for _, h := range []string{"-h", "-help", "--help"} {
				code, stdout, stderr := runCmd(t, name, h)
				assert.Equal(t, cli.ExitOK, code, "%s %s: %s", name, h, stderr)
				assert.True(t, strings.HasPrefix(stdout, "usage: "+name+" "), "%s %s: stdout %q", name, h, stdout)
				assert.Contains(t, stdout, "\nflags:\n  -", "%s %s", name, h)
				assert.Empty(t, stderr, "%s %s", name, h)
			}
			code, stdout, stderr := runCmd(t, name, "-no-such-flag")
			assert.Equal(t, cli.ExitUsage, code, stderr)
			assert.Empty(t, stdout)
			assert.Equal(t, name+": flag provided but not defined: -no-such-flag (see -h)\n", stderr)

			code, stdout, stderr = runCmd(t, name, "extra")
			assert.Equal(t, cli.ExitUsage, code, stderr)
			assert.Empty(t, stdout)
			assert.Equal(t, name+`: unexpected argument "extra": the command takes flags only (see -h)`+"\n", stderr)
		})
	}
}

// stopBound is how long a command may take to stop after SIGTERM: each
// stops in well under a second; one that ignored SIGTERM would run for
// good (play waits on stdin, the servers serve), and 30 s keeps a busy
// machine from making the test flake.
const stopBound = 30 * time.Second

// process is a command running as a process, its output collected.
type process struct {
	cmd            *exec.Cmd
	stdout, stderr syncBuffer
	done           chan struct{}
}

func start(t *testing.T, stdin io.Reader, name string, args ...string) *process {
	t.Helper()
	p := &process{cmd: exec.Command(built(t, name), args...), done: make(chan struct{})}
	p.cmd.Dir = t.TempDir()
	p.cmd.Stdin, p.cmd.Stdout, p.cmd.Stderr = stdin, &p.stdout, &p.stderr
	require.NoError(t, p.cmd.Start())
	go func() { _ = p.cmd.Wait(); close(p.done) }()
	t.Cleanup(func() { _ = p.cmd.Process.Kill(); <-p.done })
	return p
}

// waitFor waits until the process has written s to w.
func (p *process) waitFor(t *testing.T, w *syncBuffer, s string) {
	t.Helper()
	deadline := time.Now().Add(stopBound)
	for !strings.Contains(w.String(), s) {
		select {
		case <-p.done:
			t.Fatalf("exited before writing %q; stdout %q, stderr %q", s, p.stdout.String(), p.stderr.String())
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %q after %s; stdout %q, stderr %q", s, stopBound, p.stdout.String(), p.stderr.String())
		}
	}
}

// terminate sends SIGTERM and returns the exit status.
func (p *process) terminate(t *testing.T) int {
	t.Helper()
	require.NoError(t, p.cmd.Process.Signal(syscall.SIGTERM))
	select {
	case <-p.done:
		return p.cmd.ProcessState.ExitCode()
	case <-time.After(stopBound):
		t.Fatalf("still running %s after SIGTERM; stderr %q", stopBound, p.stderr.String())
		return -1
	}
}

// SIGTERM stops play waiting for an action with status 130, as Ctrl-C
// does; it stops the servers, drained, with status 0. Each says on stderr
// that a second signal exits at once, and a second signal during a
// server's drain does.
func TestSIGTERMStops(t *testing.T) {
	t.Run("play", func(t *testing.T) {
		r, w, err := os.Pipe() // no action ever comes; an *os.File, which Wait does not wait on
		require.NoError(t, err)
		defer w.Close()
		p := start(t, r, "play", "-env", "game:GuessTheNumber-v0-easy", "-seed", "1")
		r.Close() // the child's copy stays open
		p.waitFor(t, &p.stdout, "> ")
		assert.Equal(t, cli.ExitInterrupted, p.terminate(t), p.stderr.String())
		assert.Contains(t, p.stdout.String(), "stopped after 0 turns: context canceled")
		assert.Equal(t, "play: terminated: stopping the episode (once more to exit at once)\n", p.stderr.String())
	})
	t.Run("envserver", func(t *testing.T) {
		p := start(t, nil, "envserver", "-addr", "127.0.0.1:0")
		p.waitFor(t, &p.stderr, "listening on ws://127.0.0.1:")
		assert.Equal(t, cli.ExitOK, p.terminate(t), p.stderr.String())
		assert.Contains(t, p.stderr.String(), "envserver: terminated: draining the sessions (once more to exit at once)\n")
		assert.True(t, strings.HasSuffix(p.stderr.String(), "envserver: stopped\n"), p.stderr.String())
	})
	t.Run("envserver second signal", func(t *testing.T) {
		// A request whose body never ends holds the drain (-drain 5m); the
		// second SIGTERM ends the process at once, with 130.
		p := start(t, nil, "envserver", "-addr", "127.0.0.1:0", "-drain", "5m", "-body-timeout", "5m")
		p.waitFor(t, &p.stderr, "/health)\n")
		m := regexp.MustCompile(`listening on ws://(\S+)/ws`).FindStringSubmatch(p.stderr.String())
		require.NotNil(t, m, p.stderr.String())
		conn, err := net.Dial("tcp", m[1])
		require.NoError(t, err)
		defer conn.Close()
		_, err = io.WriteString(conn, "POST /reset HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{")
		require.NoError(t, err)
		time.Sleep(500 * time.Millisecond) // the server reads the request line (were it not read, the drain would end at once: exit 0 fails the test, it cannot pass wrongly)
		require.NoError(t, p.cmd.Process.Signal(syscall.SIGTERM))
		p.waitFor(t, &p.stderr, "envserver: draining 0 sessions\n")
		select {
		case <-p.done:
			t.Fatalf("the drain did not wait for the request in flight; stderr %q", p.stderr.String())
		case <-time.After(500 * time.Millisecond):
		}
		assert.Equal(t, cli.ExitInterrupted, p.terminate(t), p.stderr.String())
		assert.True(t, strings.HasSuffix(p.stderr.String(), "envserver: terminated again: exiting now\n"), p.stderr.String())
	})
	t.Run("toolserver", func(t *testing.T) {
		p := start(t, nil, "toolserver", "-http", "127.0.0.1:0")
		p.waitFor(t, &p.stderr, "toolserver: serving http://127.0.0.1:")
		assert.Equal(t, cli.ExitOK, p.terminate(t), p.stderr.String())
		assert.Contains(t, p.stderr.String(), "toolserver: terminated: stopping the server (once more to exit at once)\n")
	})
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
