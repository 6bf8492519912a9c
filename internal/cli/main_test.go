package cli

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// childMode, in the environment, makes the test binary run Main with a
// command that prints "ready", waits for its context to be cancelled,
// prints "cancelled" and then returns ExitInterrupted (mode "obey") or
// keeps waiting, deaf to the cancel (mode "deaf").
const childMode = "GEMGO_CLI_TEST_MAIN"

func TestMain(m *testing.M) {
	if mode, ok := os.LookupEnv(childMode); ok {
		os.Args = os.Args[:1]
		Main("x", "stopping", func(ctx context.Context, _ []string, stdout, _ io.Writer) int {
			fmt.Fprintln(stdout, "ready")
			<-ctx.Done()
			fmt.Fprintln(stdout, "cancelled")
			if mode == "deaf" {
				time.Sleep(time.Hour)
			}
			return ExitInterrupted
		})
	}
	os.Exit(m.Run())
}

// exitBound is how long the child may take to exit after the signal that
// ends it: it exits in milliseconds, a deaf one that ignored the second
// signal would sleep for an hour, and 20 s keeps a busy machine from
// making the test flake.
const exitBound = 20 * time.Second

// child runs the test binary as Main in mode and returns it with a reader
// of its stdout lines.
func child(t *testing.T, mode string) (*exec.Cmd, *bufio.Scanner, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), childMode+"="+mode)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	sc := bufio.NewScanner(out)
	require.True(t, sc.Scan(), "no output")
	require.Equal(t, "ready", sc.Text())
	return cmd, sc, &stderr
}

// waitExit waits for cmd to exit and returns its status.
func waitExit(t *testing.T, cmd *exec.Cmd) int {
	t.Helper()
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	select {
	case <-done:
		return cmd.ProcessState.ExitCode()
	case <-time.After(exitBound):
		t.Fatalf("still running %s after the signal", exitBound)
		return -1
	}
}

// SIGTERM, like SIGINT, cancels the command's context; the command's own
// status (130 here) is the process's.
func TestMainFirstSignalCancels(t *testing.T) {
	cmd, sc, stderr := child(t, "obey")
	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	require.True(t, sc.Scan())
	assert.Equal(t, "cancelled", sc.Text())
	assert.Equal(t, ExitInterrupted, waitExit(t, cmd))
	assert.Equal(t, "x: terminated: stopping (once more to exit at once)\n", stderr.String())
}

// A command deaf to the cancel is ended by a second signal, with 130.
func TestMainSecondSignalExits(t *testing.T) {
	cmd, sc, stderr := child(t, "deaf")
	require.NoError(t, cmd.Process.Signal(os.Interrupt))
	require.True(t, sc.Scan())
	require.Equal(t, "cancelled", sc.Text()) // the first signal was handled
	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	assert.Equal(t, ExitInterrupted, waitExit(t, cmd))
	assert.Equal(t, "x: interrupt: stopping (once more to exit at once)\nx: terminated again: exiting now\n", stderr.String())
}

// watch: the first signal cancels and does not exit; the second exits
// with 130; a closed channel ends it.
func TestWatch(t *testing.T) {
	sigs := make(chan os.Signal, 2)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stderr syncBuffer
	exited := make(chan int, 1)
	done := make(chan struct{})
	go func() {
		watch(sigs, cancel, &stderr, "train", "saving", func(code int) { exited <- code })
		close(done)
	}()

	sigs <- os.Interrupt
	<-ctx.Done()
	select {
	case <-exited:
		t.Fatal("the first signal must not exit: the command saves its work")
	case <-time.After(100 * time.Millisecond):
	}
	assert.Equal(t, "train: interrupt: saving (once more to exit at once)\n", stderr.String())

	sigs <- syscall.SIGTERM
	select {
	case code := <-exited:
		assert.Equal(t, ExitInterrupted, code)
	case <-time.After(exitBound):
		t.Fatal("the second signal did not exit")
	}
	assert.Contains(t, stderr.String(), "train: terminated again: exiting now\n")
	<-done

	// Closed before any signal: watch returns, cancelling nothing.
	sigs = make(chan os.Signal)
	close(sigs)
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	watch(sigs, cancel, &stderr, "train", "saving", func(int) { t.Fatal("exit") })
	assert.NoError(t, ctx.Err())
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
