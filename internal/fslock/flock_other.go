//go:build !(linux || darwin || dragonfly || freebsd || netbsd || openbsd || solaris)

package fslock

import "os"

// tryLock takes no lock where the platform has no flock.
func tryLock(*os.File) (held bool, err error) { return false, nil }
