//go:build !openblas

package policy

import "gonum.org/v1/gonum/blas"

// blasName names the BLAS behind the float32 matrix products.
const blasName = "gonum (pure Go)"

func gemm32(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	blasImpl.Sgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}
