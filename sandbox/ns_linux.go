//go:build linux

package sandbox

import (
	"os"
	"syscall"
)

// nsCandidates lists the namespace setups to probe, strongest first.
func nsCandidates() []nsCandidate {
	const netpid = syscall.CLONE_NEWNET | syscall.CLONE_NEWPID
	return []nsCandidate{
		{name: NetNamespace, flags: netpid, pid: true, proc: true},
		{name: NetNamespace, flags: netpid, pid: true},
		{name: NetUserNamespace, flags: netpid, userns: true, pid: true},
		{name: NetNamespace, flags: syscall.CLONE_NEWNET},
		{name: NetUserNamespace, flags: syscall.CLONE_NEWNET, userns: true},
	}
}

// applyNamespaces sets the clone flags on a; with userns, the caller's user
// and group are mapped to themselves inside a new user namespace; with
// mountns, the child gets a mount namespace of its own, in which Go makes
// every mount private before the exec (so a mount there never reaches the
// host's).
func applyNamespaces(a *syscall.SysProcAttr, flags uintptr, userns, mountns bool) {
	a.Cloneflags = flags
	if mountns {
		a.Unshareflags = syscall.CLONE_NEWNS
	}
	if userns {
		a.Cloneflags |= syscall.CLONE_NEWUSER
		a.UidMappings = []syscall.SysProcIDMap{{ContainerID: os.Getuid(), HostID: os.Getuid(), Size: 1}}
		a.GidMappings = []syscall.SysProcIDMap{{ContainerID: os.Getgid(), HostID: os.Getgid(), Size: 1}}
		a.GidMappingsEnableSetgroups = false
	}
}

// setPdeathsig kills the program if the thread that started it dies.
func setPdeathsig(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }

// The clone flags detect.go tests and clears.
const (
	cloneNewPID = syscall.CLONE_NEWPID
	cloneNewNet = syscall.CLONE_NEWNET
)
