package policy

import (
	"sync"

	"gonum.org/v1/gonum/blas"
)

// gemm32Go is float32 GEMM for row-major matrices in pure Go. On amd64 with
// AVX2 and FMA it runs gemgo's own blocked kernel (4×16 register tiles);
// otherwise gonum's pure-Go BLAS (which also serves the float64 checks).
func gemm32Go(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
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

// Blocking of sgemm: the k dimension in blocks of kcBlock, rows in blocks
// of mcBlock (the packed a block, mcBlock×kcBlock, stays in L2; one packed
// b panel, kcBlock×16, in L1).
const (
	kcBlock = 256
	mcBlock = 128
)

// sgemm computes c = alpha·op(a)·op(b) + beta·c. Per block of k it packs
// op(b) into 16-column panels and, per block of rows, op(a) into 4-row
// panels (zero-padded at the edges, so the transposes cost nothing extra),
// then runs the 4×16 kernel on every tile; edge tiles go through a scratch
// tile. Large products are split across the cores by rows, or by columns
// when there are few rows.
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
	panels := (n + 15) / 16
	bp := getBuf(panels * 16 * min(k, kcBlock))
	defer packPool.Put(bp)
	rowBlocks := (m + 3) / 4
	for pc := 0; pc < k; pc += kcBlock {
		kc := min(kcBlock, k-pc)
		// 2. pack op(b)[pc:pc+kc, :] as panels [jb][p][16]
		packB(*bp, b, ldb, tB, pc, kc, n)
		// run computes row blocks lo..hi (4 rows each) and column panels jlo..jhi
		run := func(lo, hi, jlo, jhi int) {
			ap := getBuf(min(mcBlock, (hi-lo)*4) * kc)
			defer packPool.Put(ap)
			var tile [64]float32
			for i0 := lo * 4; i0 < min(m, hi*4); i0 += mcBlock {
				rows := min(mcBlock, min(m, hi*4)-i0)
				// 3. pack op(a)[i0:i0+rows, pc:pc+kc] as panels [ib][p][4]
				packA(*ap, a, lda, tA, i0, rows, pc, kc)
				// 4. tiles
				for jb := jlo; jb < jhi; jb++ {
					bpan := (*bp)[jb*kc*16:]
					cols := min(16, n-jb*16)
					for ib := 0; ib*4 < rows; ib++ {
						apan := (*ap)[ib*kc*4:]
						r := min(4, rows-ib*4)
						ci := (i0+ib*4)*ldc + jb*16
						if r == 4 && cols == 16 {
							kern4x16(&apan[0], &bpan[0], &c[ci], kc, 1, 4, 16, ldc, alpha)
							continue
						}
						clear(tile[:])
						kern4x16(&apan[0], &bpan[0], &tile[0], kc, 1, 4, 16, 16, alpha)
						for rr := 0; rr < r; rr++ {
							crow := c[ci+rr*ldc : ci+rr*ldc+cols]
							for j := range crow {
								crow[j] += tile[rr*16+j]
							}
						}
					}
				}
			}
		}
		switch big := m*n*kc >= 1<<17; {
		case big && rowBlocks >= 16:
			parallelFor(rowBlocks, func(lo, hi, _ int) { run(lo, hi, 0, panels) })
		case big && panels >= 4: // few rows (the sampler's decode steps): split the columns
			parallelFor(panels, func(lo, hi, _ int) { run(0, rowBlocks, lo, hi) })
		default:
			run(0, rowBlocks, 0, panels)
		}
	}
}

// packB writes op(b)[pc+p][jb·16+jj] to dst[jb·kc·16 + p·16 + jj] for
// p < kc, zero beyond column n.
func packB(dst, b []float32, ldb int, tB bool, pc, kc, n int) {
	panels := (n + 15) / 16
	for jb := 0; jb < panels; jb++ {
		pan := dst[jb*kc*16 : (jb+1)*kc*16]
		j0, cols := jb*16, min(16, n-jb*16)
		for p := 0; p < kc; p++ {
			row := pan[p*16 : p*16+16]
			if !tB {
				copy(row, b[(pc+p)*ldb+j0:(pc+p)*ldb+j0+cols])
			} else {
				for jj := 0; jj < cols; jj++ {
					row[jj] = b[(j0+jj)*ldb+pc+p]
				}
			}
			clear(row[cols:])
		}
	}
}

// packA writes op(a)[i0+ib·4+r][pc+p] to dst[ib·kc·4 + p·4 + r] for the
// given rows, zero beyond them.
func packA(dst, a []float32, lda int, tA bool, i0, rows, pc, kc int) {
	for ib := 0; ib*4 < rows; ib++ {
		pan := dst[ib*kc*4 : (ib+1)*kc*4]
		r := min(4, rows-ib*4)
		if r < 4 {
			clear(pan)
		}
		for rr := 0; rr < r; rr++ {
			i := i0 + ib*4 + rr
			if !tA {
				src := a[i*lda+pc : i*lda+pc+kc]
				for p, v := range src {
					pan[p*4+rr] = v
				}
			} else {
				for p := 0; p < kc; p++ {
					pan[p*4+rr] = a[(pc+p)*lda+i]
				}
			}
		}
	}
}
