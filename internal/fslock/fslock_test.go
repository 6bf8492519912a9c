package fslock_test

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/internal/fslock"
)

func skipWithoutFlock(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" || runtime.GOOS == "js" || runtime.GOOS == "wasip1" {
		t.Skip("no flock on " + runtime.GOOS)
	}
}

// Two Locks in one process conflict (an flock belongs to the open file
// description), the second names this process, and release lets the next
// one in.
func TestLockInOneProcess(t *testing.T) {
	skipWithoutFlock(t)
	dir := t.TempDir()
	release, err := fslock.Lock(dir)
	require.NoError(t, err)
	b, err := os.ReadFile(filepath.Join(dir, fslock.Name))
	require.NoError(t, err)
	require.Equal(t, strconv.Itoa(os.Getpid())+"\n", string(b), "the holder's id is in the lock file")

	_, err = fslock.Lock(dir)
	var held *fslock.HeldError
	require.ErrorAs(t, err, &held)
	require.ErrorIs(t, err, fslock.ErrHeld)
	require.Equal(t, os.Getpid(), held.PID)
	require.Equal(t, dir+" is locked by another process (pid "+strconv.Itoa(os.Getpid())+")", err.Error())

	release()
	release() // a second call does nothing
	b, err = os.ReadFile(filepath.Join(dir, fslock.Name))
	require.NoError(t, err)
	require.Empty(t, b, "a released lock names no holder")
	again, err := fslock.Lock(dir)
	require.NoError(t, err)
	again()
}

func TestLockMissingDir(t *testing.T) {
	_, err := fslock.Lock(filepath.Join(t.TempDir(), "nope"))
	require.Error(t, err)
	require.False(t, errors.Is(err, fslock.ErrHeld), "a missing directory is not a held lock: %v", err)
	require.Contains(t, err.Error(), "nope")
}

// Another process's lock is seen, with its id, and a holder killed with
// SIGKILL leaves the directory free.
func TestLockHeldByAnotherProcess(t *testing.T) {
	skipWithoutFlock(t)
	if os.Getenv("GEMGO_FSLOCK_DIR") != "" {
		t.Skip("helper")
	}
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestLockHelper$")
	cmd.Env = append(os.Environ(), "GEMGO_FSLOCK_DIR="+dir)
	stdin, err := cmd.StdinPipe()
	require.NoError(t, err)
	defer stdin.Close()
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	line, err := bufio.NewReader(stdout).ReadString('\n')
	require.NoError(t, err)
	require.Equal(t, "locked\n", line)

	_, err = fslock.Lock(dir)
	var held *fslock.HeldError
	require.ErrorAs(t, err, &held)
	require.Equal(t, cmd.Process.Pid, held.PID)

	require.NoError(t, cmd.Process.Kill())
	_ = cmd.Wait()
	release, err := fslock.Lock(dir)
	require.NoError(t, err, "the kernel drops a killed holder's lock")
	release()
}

// TestLockHelper holds the lock of $GEMGO_FSLOCK_DIR until its stdin closes.
func TestLockHelper(t *testing.T) {
	dir := os.Getenv("GEMGO_FSLOCK_DIR")
	if dir == "" {
		t.Skip("run by TestLockHeldByAnotherProcess")
	}
	release, err := fslock.Lock(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	os.Stdout.WriteString("locked\n")
	_, _ = bufio.NewReader(os.Stdin).ReadString('\n')
}
