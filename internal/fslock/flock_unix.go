//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd || solaris

package fslock

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// tryLock takes an exclusive, non-blocking flock on f; held reports that
// another open file description has one.
func tryLock(f *os.File) (held bool, err error) {
	for range 100 { // LOCK_NB never sleeps; EINTR is a signal that arrived during the call
		err = unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
		if !errors.Is(err, unix.EINTR) {
			break
		}
	}
	if errors.Is(err, unix.EWOULDBLOCK) {
		return true, nil
	}
	return false, err
}
