//go:build openblas && !cgo

package openblas

// The openblas build tag calls OpenBLAS through cgo: with CGO_ENABLED=0 the
// build stops here, naming the fix, rather than quietly building pure Go.
var _ = openblas_build_tag_needs_cgo_set_CGO_ENABLED_1
