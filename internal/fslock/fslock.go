package fslock

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// Name is the lock file Lock creates in the directory.
const Name = ".lock"

// ErrHeld is what a *HeldError unwraps to: another holder has the lock.
var ErrHeld = errors.New("locked by another process")

// HeldError says that dir is locked by another holder.
type HeldError struct {
	Dir string
	PID int // the holder's process id, as written in the lock file; 0 when unknown
}

func (e *HeldError) Error() string {
	if e.PID > 0 {
		return fmt.Sprintf("%s is locked by another process (pid %d)", e.Dir, e.PID)
	}
	return fmt.Sprintf("%s is locked by another process", e.Dir)
}

func (e *HeldError) Unwrap() error { return ErrHeld }

// Lock takes dir's lock (dir must exist) or fails at once: with a
// *HeldError when another holder has it, with the file system's error
// otherwise. The lock file then holds this process's id. release (safe to
// call more than once) empties the file and drops the lock.
func Lock(dir string) (release func(), err error) {
	path := filepath.Join(dir, Name)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", dir, err)
	}
	held, err := tryLock(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("lock %s: %w", dir, err)
	}
	if held {
		pid := readPID(f)
		f.Close()
		return nil, &HeldError{Dir: dir, PID: pid}
	}
	// The id is only for the message of a second Lock: a failure to write
	// it loses no exclusion.
	if f.Truncate(0) == nil {
		_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			_ = f.Truncate(0) // still held: no other holder reads a stale id
			_ = f.Close()     // closing the only descriptor drops the flock
		})
	}, nil
}

// readPID is the process id written in the lock file, 0 when there is none.
func readPID(f *os.File) int {
	b := make([]byte, 32)
	n, _ := f.ReadAt(b, 0)
	pid, err := strconv.Atoi(strings.TrimSpace(string(b[:n])))
	if err != nil || pid <= 0 {
		return 0
	}
	return pid
}
