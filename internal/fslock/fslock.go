package fslock

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// Name is the lock file Lock creates in the directory.
const Name = ".lock"

// ErrLocked is wrapped by Lock's error when another holder has the lock.
var ErrLocked = errors.New("in use by another process")

// Lock takes an exclusive lock on dir, which must exist, without waiting:
// when another process (or another Lock in this one) holds it, the error
// wraps ErrLocked and syscall.EWOULDBLOCK and names dir. unlock releases
// the lock; the lock file stays in dir.
func Lock(dir string) (unlock func() error, err error) {
	path := filepath.Join(dir, Name)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", dir, err)
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if err != nil {
		_ = f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("%s is %w (it holds the lock on %s): %w", dir, ErrLocked, path, err)
		}
		return nil, fmt.Errorf("lock %s: %w", dir, err)
	}
	return func() error {
		// Closing the file releases the flock (the only descriptor of its
		// open file description is this one).
		return f.Close()
	}, nil
}
