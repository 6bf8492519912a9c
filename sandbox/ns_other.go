//go:build !linux

package sandbox

import "syscall"

// nsCandidates is empty: namespaces are a Linux feature.
func nsCandidates() []nsCandidate { return nil }

func applyNamespaces(*syscall.SysProcAttr, uintptr, bool) {}

func setPdeathsig(*syscall.SysProcAttr) {}
