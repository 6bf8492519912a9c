//go:build openblas

package policy

import (
	"github.com/gemgo/gemgo/policy/internal/openblas"
	"gonum.org/v1/gonum/blas"
)

// gemm32 computes c = alpha·op(a)·op(b) + beta·c for row-major float32
// matrices; every float32 product of the model goes through it. The openblas
// build tag routes it to OpenBLAS's cblas_sgemm (package internal/openblas;
// apt-get install libopenblas-dev), at every size: single-threaded OpenBLAS
// beat gemgo's kernel on every shape of the model, the small attention
// products included (BenchmarkGemm32Backends). OpenBLAS runs on one thread;
// large products are split across GOMAXPROCS goroutines with the same rule
// as gemgo's kernel (by rows, or by columns when there are few rows), so
// GOMAXPROCS stays the one knob in both builds.
func gemm32(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	ta, tb := tA == blas.Trans, tB == blas.Trans
	switch big := m*n*k >= 1<<17; {
	case big && m >= 64:
		parallelFor(m, func(lo, hi, _ int) {
			ao := lo * lda // op(a) rows lo..hi: rows of a, or columns when transposed
			if ta {
				ao = lo
			}
			openblas.Sgemm(ta, tb, hi-lo, n, k, alpha, a[ao:], lda, b, ldb, beta, c[lo*ldc:], ldc)
		})
	case big && n >= 64:
		parallelFor(n, func(lo, hi, _ int) {
			bo := lo // op(b) columns lo..hi: columns of b, or rows when transposed
			if tb {
				bo = lo * ldb
			}
			openblas.Sgemm(ta, tb, m, hi-lo, k, alpha, a, lda, b[bo:], ldb, beta, c[lo:], ldc)
		})
	default:
		openblas.Sgemm(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
	}
}

// ownKernels is false: gemm32 is OpenBLAS's, and sgemmPackedNT would not
// give its bits.
func ownKernels() bool { return false }
