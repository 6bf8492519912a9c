package sandbox

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Work directories are named workPrefix + the creating process's pid +
// "-" + a random suffix, so that a later process can tell a leaked one
// (its creator is gone: killed while a program ran) from one in use.
const workPrefix = "gemgo-sandbox-"

// legacyAge is how old a work directory without a pid in its name (as
// older versions named them) must be before it counts as leaked.
const legacyAge = time.Hour

var cleaned sync.Once

// removeLeaked removes, once per process, the work directories that
// processes which no longer exist left in the system temp dir.
func removeLeaked() {
	cleaned.Do(func() { removeLeakedIn(os.TempDir(), time.Now()) })
}

// removeLeakedIn removes the leaked work directories in tmp and returns
// their names.
func removeLeakedIn(tmp string, now time.Time) []string {
	ents, err := os.ReadDir(tmp)
	if err != nil {
		return nil
	}
	var removed []string
	for _, e := range ents {
		name := e.Name()
		if !e.IsDir() || !strings.HasPrefix(name, workPrefix) {
			continue
		}
		rest := strings.TrimPrefix(strings.TrimPrefix(name, workPrefix), "probe-")
		pidText, _, hasPid := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(pidText)
		switch {
		case hasPid && err == nil:
			if processExists(pid) {
				continue
			}
		case err == nil: // the old name: only random digits
			info, err := e.Info()
			if err != nil || now.Sub(info.ModTime()) < legacyAge {
				continue
			}
		default:
			continue
		}
		if os.RemoveAll(filepath.Join(tmp, name)) == nil {
			removed = append(removed, name)
		}
	}
	return removed
}

// processExists reports whether pid names a live process (one this
// process may signal or not).
func processExists(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// workDirPattern is the os.MkdirTemp pattern of this process's work
// directories.
func workDirPattern(kind string) string {
	return workPrefix + kind + strconv.Itoa(os.Getpid()) + "-"
}
