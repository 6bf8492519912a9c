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

// gemmBias32 computes c = op(a)·op(b) + bias (bias added to every row) with
// gemgo's kernels, which add the bias as they store (no copy of it into c
// first), and reports whether it did; it does not where the kernels do not
// run, and the caller then fills c with the bias and accumulates.
func gemmBias32(tB bool, m, n, k int, a []float32, lda int, b []float32, ldb int, bias, c []float32, ldc int) bool {
	if !haveKernel || m == 0 || n == 0 || k == 0 {
		return false
	}
	sgemmBias(tB, m, n, k, a, lda, b, ldb, bias, c, ldc)
	return true
}
