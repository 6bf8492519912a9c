//go:build !openblas

package policy

import (
	"sync"

	"gonum.org/v1/gonum/blas"
)

// gemm32 is float32 GEMM for row-major matrices. On amd64 with AVX2 and FMA
// it runs gemgo's own blocked kernel (4×16 register tiles); otherwise, and
// for the float64 checks, gonum's pure-Go BLAS.
func gemm32(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	if !haveKernel || m == 0 || n == 0 {
		blasImpl.Sgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	sgemm(tA == blas.Trans, tB == blas.Trans, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

var packPool = sync.Pool{New: func() any { return new([]float32) }}

func getBuf(n int) *[]float32 {
	p := packPool.Get().(*[]float32)
	if cap(*p) < n {
		*p = make([]float32, n)
	}
	*p = (*p)[:n]
	return p
}

// sgemm computes c = alpha·op(a)·op(b) + beta·c. The kernel reads a
// through row and column strides, so a transposed a costs nothing; a
// transposed b (small here: weights, keys) is packed into a row-major copy.
func sgemm(tA, tB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	// 1. beta
	if beta != 1 {
		for i := 0; i < m; i++ {
			row := c[i*ldc : i*ldc+n]
			if beta == 0 {
				clear(row)
				continue
			}
			for j := range row {
				row[j] *= beta
			}
		}
	}
	if k == 0 || alpha == 0 {
		return
	}
	// 2. strides of a; pack a transposed b as k×n
	aRow, aK := lda, 1
	if tA {
		aRow, aK = 1, lda
	}
	if tB {
		p := getBuf(k * n)
		defer packPool.Put(p)
		transpose(*p, b, n, k, ldb)
		b, ldb = *p, n
	}
	// 3. the product, split over rows when it is large enough to share
	if m >= 64 && m*n*k >= 1<<19 {
		blocks := (m + 3) / 4
		parallelFor(blocks, func(lo, hi, _ int) {
			r0, r1 := lo*4, min(m, hi*4)
			sgemmNN(r1-r0, n, k, alpha, a[r0*aRow:], aRow, aK, b, ldb, c[r0*ldc:], ldc)
		})
		return
	}
	sgemmNN(m, n, k, alpha, a, aRow, aK, b, ldb, c, ldc)
}

// transpose writes the cols×rows transpose of src (rows×cols, leading
// dimension ld) into dst (leading dimension rows).
func transpose(dst, src []float32, rows, cols, ld int) {
	for i := 0; i < rows; i++ {
		row := src[i*ld : i*ld+cols]
		for j, v := range row {
			dst[j*rows+i] = v
		}
	}
}

// sgemmNN accumulates c += alpha·a·b, where element (i, p) of a is
// a[i·aRow + p·aK], with 4×16 kernel tiles and plain Go for the edges.
func sgemmNN(m, n, k int, alpha float32, a []float32, aRow, aK int, b []float32, ldb int, c []float32, ldc int) {
	m4, n16 := m&^3, n&^15
	for j := 0; j < n16; j += 16 {
		for i := 0; i < m4; i += 4 {
			kern4x16(&a[i*aRow], &b[j], &c[i*ldc+j], k, aRow, aK, ldb, ldc, alpha)
		}
	}
	// right edge: columns n16..n of rows 0..m4
	if n16 < n {
		edge(0, m4, n16, n, k, alpha, a, aRow, aK, b, ldb, c, ldc)
	}
	// bottom edge: rows m4..m, all columns
	if m4 < m {
		edge(m4, m, 0, n, k, alpha, a, aRow, aK, b, ldb, c, ldc)
	}
}

func edge(i0, i1, j0, j1, k int, alpha float32, a []float32, aRow, aK int, b []float32, ldb int, c []float32, ldc int) {
	for i := i0; i < i1; i++ {
		crow := c[i*ldc+j0 : i*ldc+j1]
		for p := 0; p < k; p++ {
			s := alpha * a[i*aRow+p*aK]
			brow := b[p*ldb+j0 : p*ldb+j1]
			for j, v := range brow {
				crow[j] += s * v
			}
		}
	}
}
