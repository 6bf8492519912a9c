//go:build !linux

package sandbox

import (
	"errors"
	"syscall"
)

// nsCandidates is empty: namespaces are a Linux feature.
func nsCandidates() []nsCandidate { return nil }

func applyNamespaces(*syscall.SysProcAttr, uintptr, bool, bool) {}

func setPdeathsig(*syscall.SysProcAttr) {}

// The per-run uid is a Linux feature here: no run drops privileges.
type runUser struct{ uid int }

func acquireUser() (*runUser, error)         { return nil, errNoUser }
func (u *runUser) release(string)            {}
func killUser(string, int)                   {}
func chownTree(string, int) error            { return nil }
func blockedDirs(string) []string            { return nil }
func othersMayRun(string) bool               { return true }
func errUnreachable(string, Isolation) error { return errNoUser }

var errNoUser = errors.New("no sandbox user")

// No clone flags off Linux.
const (
	cloneNewPID = 0
	cloneNewNet = 0
)
