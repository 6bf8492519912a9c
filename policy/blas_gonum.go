package policy

import (
	"sync"

	"gonum.org/v1/gonum/blas"
)

// gemm32Go is float32 GEMM for row-major matrices in pure Go. On amd64 with
// AVX2 and FMA it runs gemgo's own blocked kernels (6×16 register tiles, and
// 12×32 ones where the CPU has AVX-512F, with the same bits); otherwise
// gonum's pure-Go BLAS (which also serves the float64 checks).
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

// Blocking of sgemm: the k dimension in blocks of kcBlock (one packed b
// panel, kcBlock×16, stays in L1; two for the 12×32 kernel), rows in
// chunks of mcBlock (the chunk of a, mcBlock×kcBlock, stays in L2 while
// every column panel passes over it); mr is the 6×16 kernel's rows per
// tile (the 12×32 kernel takes two blocks).
const (
	kcBlock = 256
	mr      = 6
	mcBlock = 20 * mr
)

// sgemm computes c = alpha·op(a)·op(b) + beta·c. Per block of k it packs
// op(b) into 16-column panels (zero-padded at the right edge; a row-major
// b only for its last, partial panel), then runs
// the 6×16 kernel on every tile, reading a in place through its strides
// (row-major or transposed alike); only a last block of fewer than 6 rows
// is copied, zero-padded, and edge tiles go through a scratch tile. With
// AVX-512 the 12×32 kernel takes every pair of full row blocks and full
// panels instead, with each output's operations in the same order. An edge
// tile's outputs are rounded twice (alpha·acc into the scratch tile, then
// the sum with c) where a full tile's take one FMA, so the edge tiles stay
// on the 6×16 path: the two paths give the same bits. Large
// products are split across the cores by rows, or by columns when there
// are few rows. Every element's sum runs over k in the same order whatever
// the split, so the result does not depend on the number of cores.
func sgemm(tA, tB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	g := gemmJob{tA: tA, tB: tB, wide: haveKernel512, m: m, n: n, alpha: alpha, a: a, lda: lda, b: b, ldb: ldb, c: c, ldc: ldc}
	// 1. beta
	if g.zeroes(beta, k) {
		g.init = zero16[:]
	} else {
		scaleC(m, n, beta, c, ldc)
	}
	g.blocks(k)
}

// sgemmBias computes c = op(a)·op(b) + bias, the bias (n values) added to
// every row: a linear layer's forward pass. The bias is the kernels'
// starting value in the first block of k, so c is written once, with the
// bits of filling its rows with the bias and then adding op(a)·op(b)
// (which is what the AVX-512 path does).
func sgemmBias(tA, tB bool, m, n, k int, a []float32, lda int, b []float32, ldb int, bias, c []float32, ldc int) {
	g := gemmJob{tA: tA, tB: tB, wide: haveKernel512, m: m, n: n, alpha: 1, a: a, lda: lda, b: b, ldb: ldb, c: c, ldc: ldc}
	if g.zeroes(0, k) {
		g.init, g.initStep = bias[:n], 16
	} else {
		for i := 0; i < m; i++ {
			copy(c[i*ldc:i*ldc+n], bias[:n])
		}
	}
	g.blocks(k)
}

// zero16 is the kernels' starting row for a c with beta = 0.
var zero16 [16]float32

// blocks runs the product over k in blocks of kcBlock.
func (g gemmJob) blocks(k int) {
	m, n := g.m, g.n
	if k == 0 || g.alpha == 0 || m == 0 || n == 0 {
		return
	}
	panels := (n + 15) / 16
	bp := getBuf(panels * 16 * min(k, kcBlock))
	defer packPool.Put(bp)
	g.bp = *bp
	rowBlocks := (m + mr - 1) / mr
	unit := 1 // row blocks or panels per share of the parallel split
	if g.wide {
		unit = 2 // so that shares start on a 12×32 tile
	}
	for pc := 0; pc < k; pc += kcBlock {
		g.pc, g.kc = pc, min(kcBlock, k-pc)
		// 2. pack op(b)[pc:pc+kc, :] as panels [jb][p][16]
		packB(g.bp, g.b, g.ldb, g.tB, g.pc, g.kc, n)
		switch big := m*n*g.kc >= 1<<17; {
		case big && rowBlocks >= 16:
			gp, u := g, unit // only the parallel paths move copies to the heap
			parallelFor((rowBlocks+u-1)/u, func(lo, hi, _ int) { gp.run(lo*u, min(hi*u, rowBlocks), 0, panels) })
		case big && panels >= 4: // few rows (the sampler's decode steps): split the columns
			gp, u := g, unit
			parallelFor((panels+u-1)/u, func(lo, hi, _ int) { gp.run(0, rowBlocks, lo*u, min(hi*u, panels)) })
		default:
			g.run(0, rowBlocks, 0, panels) // small products: no goroutines, no allocation
		}
	}
}

// scaleC sets the m×n block c to beta·c (0: cleared, whatever it held).
func scaleC(m, n int, beta float32, c []float32, ldc int) {
	if beta == 1 {
		return
	}
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

// packNT packs the transpose of b's first n rows (n×k, row stride ldb,
// k ≤ kcBlock) into dst as sgemm's 16-column panels, for sgemmPackedNT.
func packNT(dst, b []float32, ldb, n, k int) []float32 {
	dst = grow(dst, (n+15)/16*16*k)
	packB(dst, b, ldb, true, 0, k, n)
	return dst
}

// sgemmPackedNT computes c = alpha·a·bᵀ + beta·c for a (m×k) and the first
// n rows of a b whose transpose bp holds, packed by packNT for n or more
// rows with the same k. It gives sgemm's bits for the same product: the
// same panels feed the same kernels in the same order, and the columns
// packed beyond n only reach the scratch tile, which drops them. So a
// caller multiplying by ever longer prefixes of one b (causal attention)
// packs it once. Serial: it is meant for the small products inside a
// parallel loop.
func sgemmPackedNT(m, n, k int, alpha float32, a []float32, lda int, bp []float32, beta float32, c []float32, ldc int) {
	if m == 0 || n == 0 {
		return
	}
	g := gemmJob{tB: true, wide: haveKernel512, m: m, n: n, alpha: alpha, a: a, lda: lda, bp: bp, c: c, ldc: ldc, kc: k}
	if g.zeroes(beta, k) {
		g.init = zero16[:]
	} else {
		scaleC(m, n, beta, c, ldc)
	}
	if k == 0 || alpha == 0 {
		return
	}
	g.run(0, (m+mr-1)/mr, 0, (n+15)/16)
}

// gemmJob is one sgemm call's operands and its current block of k.
type gemmJob struct {
	tA, tB       bool
	wide         bool // full 12×32 tiles go to kern12x32 (AVX-512)
	m, n, pc, kc int
	// c's starting values in the first block of k (pc = 0): nil, c as it
	// is; otherwise the row init[jb·initStep:][:16] for every row of column
	// panel jb (zero16 with step 0 for beta = 0, a bias with step 16)
	init          []float32
	initStep      int
	alpha         float32
	a, b, c, bp   []float32
	lda, ldb, ldc int
}

// zeroes reports whether c = alpha·a·b + beta·c can skip setting c's
// starting values first (clearing it, or filling it with a bias): beta is 0
// and every output is written by the 6×16 kernel from a starting row
// (init) in the first block of k. The 12×32 kernel has no starting row,
// so with AVX-512 c is set first, as it is for products with nothing to
// write (k or alpha 0). Both ways give c the same bits: one FMA adds
// alpha·Σ onto the starting value.
func (g *gemmJob) zeroes(beta float32, k int) bool {
	return beta == 0 && !g.wide && k > 0 && g.alpha != 0
}

// panel returns the kernel's b operand for column panel jb and its row
// stride: a full panel of a row-major b is read in place.
func (g *gemmJob) panel(jb int) (*float32, int) {
	if !g.tB && jb*16+16 <= g.n {
		return &g.b[g.pc*g.ldb+jb*16], g.ldb
	}
	return &g.bp[jb*g.kc*16], 16
}

// run computes row blocks lo..hi (mr rows each) and column panels jlo..jhi
// of the current block of k.
func (g *gemmJob) run(lo, hi, jlo, jhi int) {
	m, kc := g.m, g.kc
	rowEnd := min(m, hi*mr)
	var edge *[]float32 // the rows of a last, partial block as [p][mr]
	if tail := m % mr; tail > 0 && rowEnd == m {
		edge = getBuf(mr * kc)
		defer packPool.Put(edge)
		packEdge(*edge, g.a, g.lda, g.tA, m-tail, tail, g.pc, kc)
	}
	var tile [mr * 16]float32
	for i0 := lo * mr; i0 < rowEnd; i0 += mcBlock {
		i1 := min(i0+mcBlock, rowEnd)
		for jb := jlo; jb < jhi; jb++ {
			if !g.wide || jb+1 >= jhi || (jb+2)*16 > g.n {
				g.tiles(i0, i1, jb, edge, &tile)
				continue
			}
			// two full panels: 12×32 tiles over full rows, the rest by panel
			b0, ldbp := g.panel(jb)
			b1, _ := g.panel(jb + 1)
			i := i0
			for ; i+2*mr <= i1; i += 2 * mr {
				ap, aRow, aK := g.aTile(i)
				kern12x32(ap, b0, b1, &g.c[i*g.ldc+jb*16], kc, aRow, aK, ldbp, g.ldc, g.alpha)
			}
			g.tiles(i, i1, jb, edge, &tile)
			jb++
			g.tiles(i, i1, jb, edge, &tile)
		}
	}
}

// aTile returns the kernels' a operand for full rows from i on and its row
// and k strides: a read in place, row-major or transposed.
func (g *gemmJob) aTile(i int) (*float32, int, int) {
	if g.tA {
		return &g.a[g.pc*g.lda+i], 1, g.lda
	}
	return &g.a[i*g.lda+g.pc], g.lda, 1
}

// tiles computes rows i..i1 (i a multiple of mr) of column panel jb with
// the 6×16 kernel: full tiles in place, a partial one (the last rows of c,
// or its last columns) through the scratch tile.
func (g *gemmJob) tiles(i, i1, jb int, edge *[]float32, tile *[mr * 16]float32) {
	ldc := g.ldc
	bpan, ldbp := g.panel(jb)
	cols := min(16, g.n-jb*16)
	for ; i < i1; i += mr {
		r := min(mr, i1-i)
		ci := i*ldc + jb*16
		var ap *float32
		aRow, aK := 1, mr
		if r < mr {
			ap = &(*edge)[0]
		} else {
			ap, aRow, aK = g.aTile(i)
		}
		var init []float32 // the starting row of this tile, nil: c
		if g.init != nil && g.pc == 0 {
			init = g.init[jb*g.initStep:]
		}
		if r == mr && cols == 16 {
			c0, ldc0 := &g.c[ci], ldc
			if init != nil {
				c0, ldc0 = &init[0], 0
			}
			kern6x16(ap, bpan, &g.c[ci], g.kc, aRow, aK, ldbp, ldc, g.alpha, c0, ldc0)
			continue
		}
		kern6x16(ap, bpan, &tile[0], g.kc, aRow, aK, ldbp, 16, g.alpha, &zero16[0], 0)
		for rr := 0; rr < r; rr++ {
			crow := g.c[ci+rr*ldc : ci+rr*ldc+cols]
			if init != nil {
				copy(crow, init[:cols]) // as setting c first would have: the start plus the tile
			}
			for j := range crow {
				crow[j] += tile[rr*16+j]
			}
		}
	}
}

// packB writes op(b)[pc+p][jb·16+jj] to dst[jb·kc·16 + p·16 + jj] for
// p < kc, zero beyond column n; full panels of a row-major b are skipped
// (the kernel reads them in place).
func packB(dst, b []float32, ldb int, tB bool, pc, kc, n int) {
	panels := (n + 15) / 16
	for jb := 0; jb < panels; jb++ {
		pan := dst[jb*kc*16 : (jb+1)*kc*16]
		j0, cols := jb*16, min(16, n-jb*16)
		if !tB && cols == 16 {
			continue // read in place by the kernel
		}
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

// packEdge writes op(a)[i0+r][pc+p] to dst[p·mr + r] for r < rows (fewer
// than mr), zero beyond them.
func packEdge(dst, a []float32, lda int, tA bool, i0, rows, pc, kc int) {
	clear(dst)
	for r := 0; r < rows; r++ {
		i := i0 + r
		for p := 0; p < kc; p++ {
			if tA {
				dst[p*mr+r] = a[(pc+p)*lda+i]
			} else {
				dst[p*mr+r] = a[i*lda+pc+p]
			}
		}
	}
}
