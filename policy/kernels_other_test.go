//go:build !amd64

package policy

// kernelPaths lists the GEMM paths this CPU can run: off amd64, gonum's
// pure Go only.
func kernelPaths() [][2]bool { return [][2]bool{{false, false}} }

// useKernels does nothing off amd64 (one path).
func useKernels([2]bool) (restore func()) { return func() {} }
