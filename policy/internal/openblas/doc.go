// Package openblas is the policy's float32 GEMM through OpenBLAS's
// cblas_sgemm, for the optional openblas build tag. It is a package of its
// own because a Go package that uses cgo cannot also hold Go assembly
// (policy's AVX2 kernels); without the tag it is empty and the build has no
// cgo at all.
//
// Install the library and its header, then build with the tag:
//
//	apt-get install libopenblas-dev
//	go run -tags openblas ./cmd/train -config configs/rebn_guess.yaml
//
// It includes <cblas.h> and links -lopenblas, both from libopenblas-dev
// (elsewhere, point CGO_CFLAGS and CGO_LDFLAGS at them). Without the header
// the build stops with a #error naming the package to install; with
// CGO_ENABLED=0 it stops on an undefined name that says cgo is needed.
package openblas
