package fslock_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/internal/fslock"
)

// A second Lock of a held directory fails at once naming the directory;
// after unlock it succeeds again.
func TestLockExcludes(t *testing.T) {
	dir := t.TempDir()
	unlock, err := fslock.Lock(dir)
	require.NoError(t, err)
	assert.FileExists(t, filepath.Join(dir, fslock.Name))

	_, err = fslock.Lock(dir)
	require.Error(t, err)
	assert.ErrorIs(t, err, fslock.ErrLocked)
	assert.ErrorIs(t, err, syscall.EWOULDBLOCK)
	assert.Contains(t, err.Error(), dir)

	require.NoError(t, unlock())
	unlock2, err := fslock.Lock(dir)
	require.NoError(t, err, "free again after unlock")
	require.NoError(t, unlock2())
}

// The lock holds across processes: flock(1) in another process cannot
// take it while this one holds it, and can once it is released.
func TestLockExcludesAnotherProcess(t *testing.T) {
	flock, err := exec.LookPath("flock")
	if err != nil {
		t.Skip("flock(1) not found (apt-get install util-linux)")
	}
	dir := t.TempDir()
	unlock, err := fslock.Lock(dir)
	require.NoError(t, err)
	err = exec.Command(flock, "-n", filepath.Join(dir, fslock.Name), "true").Run()
	var exit *exec.ExitError
	require.True(t, errors.As(err, &exit), "flock -n must fail while the lock is held: %v", err)
	require.NoError(t, unlock())
	require.NoError(t, exec.Command(flock, "-n", filepath.Join(dir, fslock.Name), "true").Run())
}

func TestLockMissingDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "no", "such")
	_, err := fslock.Lock(dir)
	require.Error(t, err)
	assert.ErrorIs(t, err, os.ErrNotExist)
	assert.NotErrorIs(t, err, fslock.ErrLocked)
	assert.Contains(t, err.Error(), dir)
}
