//go:build !openblas

package policy

import "gonum.org/v1/gonum/blas"

// gemm32 computes c = alpha·op(a)·op(b) + beta·c for row-major float32
// matrices; every float32 product of the model goes through it. The default
// build is pure Go (gemm32Go, no cgo); the openblas build tag swaps this file
// for blas_openblas.go.
func gemm32(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	gemm32Go(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// ownKernels reports whether gemm32 runs gemgo's own kernels (sgemm), so
// that a product may take sgemmPackedNT's prepacked operand with the same
// bits.
func ownKernels() bool { return haveKernel }
