package policy

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"golang.org/x/sys/cpu"
)

// skipNo512 skips a test or benchmark of the AVX-512 kernel on CPUs that
// cannot run it.
func skipNo512(tb testing.TB) {
	tb.Helper()
	if !haveKernel512 {
		tb.Skipf("no AVX-512F here (cpu.X86.HasAVX512F=%v, AVX2+FMA=%v): only the AVX2 kernel runs", cpu.X86.HasAVX512F, haveKernel)
	}
}

// gemmPath runs gemm32Go with the AVX-512 kernel on (wide) or off.
func gemmPath(wide bool, tA, tB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	defer func(old bool) { haveKernel512 = old }(haveKernel512)
	haveKernel512 = wide
	gemm32Go(trans(tA), trans(tB), m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// kern12x32 gives the bits of four kern6x16 calls on its quarters, for
// row-major and transposed a, padded leading dimensions, and k from 1 to
// past a k block.
func TestKern12x32MatchesKern6x16(t *testing.T) {
	skipNo512(t)
	rng := rand.New(rand.NewPCG(5, 12))
	for _, k := range []int{1, 2, 3, 7, 16, 33, 255, 256, 300} {
		for _, tA := range []bool{false, true} {
			aRow, aK, size := k+5, 1, 12*(k+5) // a: 12 rows × k, padded
			if tA {
				aRow, aK, size = 1, 15, k*15 // k rows × 12, padded
			}
			a := randF32(rng, size)
			ldb, ldc := 32+7, 32+3
			b := randF32(rng, k*ldb)
			c0 := randF32(rng, 12*ldc)
			alpha := float32(0.3)
			got, want := append([]float32(nil), c0...), append([]float32(nil), c0...)
			kern12x32(&a[0], &b[0], &b[16], &got[0], k, aRow, aK, ldb, ldc, alpha)
			for r := 0; r < 12; r += 6 {
				for j := 0; j < 32; j += 16 {
					kern6x16(&a[r*aRow], &b[j], &want[r*ldc+j], k, aRow, aK, ldb, ldc, alpha, &want[r*ldc+j], ldc)
				}
			}
			for i, w := range want {
				if math.Float32bits(got[i]) != math.Float32bits(w) {
					t.Fatalf("k=%d tA=%v: c[%d][%d] = %v (%#08x), kern6x16 gives %v (%#08x)", k, tA, i/ldc, i%ldc, got[i], math.Float32bits(got[i]), w, math.Float32bits(w))
				}
			}
		}
	}
}

// gemmCase is one product of TestGemm32AVX512MatchesAVX2.
type gemmCase struct {
	tA, tB      bool
	m, n, k     int
	alpha, beta float32
	pad         int // extra columns of every leading dimension
}

func gemm512Cases() []gemmCase {
	ms := []int{1, 5, 6, 7, 11, 12, 13, 18, 24, 25, 37, 121, 130}
	ns := []int{1, 15, 16, 17, 31, 32, 33, 48, 63, 64, 65, 97}
	ks := []int{1, 2, 7, 16, 64, 255, 256, 257, 300}
	alphas := []float32{1, -2, 0.3}
	betas := []float32{0, 1, 0.5, -1.5}
	var cs []gemmCase
	i := 0
	for _, tA := range []bool{false, true} {
		for _, tB := range []bool{false, true} {
			for _, m := range ms {
				for _, n := range ns {
					cs = append(cs, gemmCase{tA, tB, m, n, ks[i%len(ks)], alphas[i%len(alphas)], betas[i%len(betas)], i % 3})
					i++
				}
			}
			// the model's shapes and the parallel paths (by rows, by columns)
			cs = append(cs,
				gemmCase{tA, tB, 1024, 64, 256, 1, 0, 0},
				gemmCase{tA, tB, 64, 256, 1024, 1, 1, 0},
				gemmCase{tA, tB, 200, 100, 300, -2, 0.5, 1},
				gemmCase{tA, tB, 20, 200, 100, 0.3, 1, 2})
		}
	}
	return cs
}

// The AVX-512 path of gemm32Go gives the AVX2 path's bits for every
// transpose, sizes below, at and above the 12×32 tile, k across the k
// blocks, alpha/beta cases and padded leading dimensions; both stay within
// 1e-5 of a float64 reference, relative to Σ|terms| (|beta·c| + |alpha|·Σ|a·b|).
func TestGemm32AVX512MatchesAVX2(t *testing.T) {
	if !haveKernel {
		t.Skip("no AVX2/FMA here: gonum's BLAS is the only path")
	}
	rng := rand.New(rand.NewPCG(7, 32))
	type result struct {
		gc            gemmCase
		a, b          []float32
		lda, ldb, ldc int
		c0            []float32 // c before the product
		c             []float32 // the AVX2 path's c
	}
	var res []result
	for _, gc := range gemm512Cases() {
		m, n, k := gc.m, gc.n, gc.k
		ar, ac, br, bc := m, k, k, n
		if gc.tA {
			ar, ac = k, m
		}
		if gc.tB {
			br, bc = n, k
		}
		lda, ldb, ldc := ac+gc.pad, bc+gc.pad, n+gc.pad
		a, b, c0 := randF32(rng, (ar-1)*lda+ac), randF32(rng, (br-1)*ldb+bc), randF32(rng, (m-1)*ldc+n)
		c := append([]float32(nil), c0...)
		gemmPath(false, gc.tA, gc.tB, m, n, k, gc.alpha, a, lda, b, ldb, gc.beta, c, ldc)
		checkRef(t, gc, a, lda, b, ldb, c0, c, ldc)
		res = append(res, result{gc, a, b, lda, ldb, ldc, c0, c})
	}
	skipNo512(t)
	for _, r := range res {
		gc, ldc := r.gc, r.ldc
		c := append([]float32(nil), r.c0...)
		gemmPath(true, gc.tA, gc.tB, gc.m, gc.n, gc.k, gc.alpha, r.a, r.lda, r.b, r.ldb, gc.beta, c, ldc)
		for i := 0; i < gc.m; i++ {
			for j := 0; j < gc.n; j++ {
				got, want := c[i*ldc+j], r.c[i*ldc+j]
				if math.Float32bits(got) != math.Float32bits(want) {
					t.Fatalf("%+v: c[%d][%d] = %v (%#08x) with AVX-512, %v (%#08x) with AVX2", gc, i, j, got, math.Float32bits(got), want, math.Float32bits(want))
				}
			}
		}
	}
}

// Two training steps of a d=64 model on 32 sequences of 32 tokens (the
// reference workload's shape) leave the same weights, bit for bit, and
// report the same losses on the AVX2 and the AVX-512 path.
func TestTrainStepSameBitsAVX512(t *testing.T) {
	skipNo512(t)
	c := Config{Vocab: 64, Context: 32, Layers: 2, DModel: 64, Heads: 4}
	rng := rand.New(rand.NewPCG(9, 9))
	var batch []Sequence
	for range 32 {
		batch = append(batch, seqFor(rng, c, 5, 27))
	}
	train := func(wide bool) (*Weights, []float64) {
		defer func(old bool) { haveKernel512 = old }(haveKernel512)
		haveKernel512 = wide
		w, err := NewWeights(c, rand.New(rand.NewPCG(1, 1)))
		if err != nil {
			t.Fatal(err)
		}
		tr, err := NewTrainer(w, OptimConfig{LR: 1e-3})
		if err != nil {
			t.Fatal(err)
		}
		var losses []float64
		for range 2 {
			st, err := tr.SupervisedStep(batch)
			if err != nil {
				t.Fatal(err)
			}
			losses = append(losses, st.Loss)
		}
		return w, losses
	}
	w2, l2 := train(false)
	w5, l5 := train(true)
	for i, l := range l2 {
		if math.Float64bits(l) != math.Float64bits(l5[i]) {
			t.Fatalf("step %d: loss %v with AVX2, %v with AVX-512", i+1, l, l5[i])
		}
	}
	for i, p := range w2.Params {
		for j, x := range p.Data {
			if y := w5.Params[i].Data[j]; math.Float32bits(x) != math.Float32bits(y) {
				t.Fatalf("%s[%d] = %v with AVX2, %v with AVX-512", p.Name, j, x, y)
			}
		}
	}
}

// checkRef holds c (the product of case gc from c0) to a float64 reference.
func checkRef(t *testing.T, gc gemmCase, a []float32, lda int, b []float32, ldb int, c0, c []float32, ldc int) {
	t.Helper()
	for i := 0; i < gc.m; i++ {
		for j := 0; j < gc.n; j++ {
			var sum, abs float64
			for p := 0; p < gc.k; p++ {
				ai, bi := i*lda+p, p*ldb+j
				if gc.tA {
					ai = p*lda + i
				}
				if gc.tB {
					bi = j*ldb + p
				}
				av, bv := a[ai], b[bi]
				sum += float64(av) * float64(bv)
				abs += math.Abs(float64(av) * float64(bv))
			}
			ref := float64(gc.alpha)*sum + float64(gc.beta)*float64(c0[i*ldc+j])
			scale := math.Abs(float64(gc.alpha))*abs + math.Abs(float64(gc.beta)*float64(c0[i*ldc+j]))
			if got := float64(c[i*ldc+j]); math.Abs(got-ref) > 1e-5*scale {
				t.Fatalf("%+v: c[%d][%d] = %v, float64 reference %v (scale %v)", gc, i, j, got, ref, scale)
			}
		}
	}
}

// BenchmarkGemm32 times gemm32Go at the products of the reference models
// (d=64 and d=128, feed-forward width 4d, 32×32 tokens): the feed-forward
// layer up and down, the input gradient (b transposed) and the weight
// gradient (a transposed), on the AVX2 and the AVX-512 path.
func BenchmarkGemm32(b *testing.B) {
	for _, d := range []int{64, 128} {
		for _, s := range []struct {
			tA, tB  bool
			m, k, n int
		}{
			{false, false, 1024, d, 4 * d},
			{false, false, 1024, 4 * d, d},
			{false, true, 1024, 4 * d, d},
			{true, false, d, 1024, 4 * d},
		} {
			name := fmt.Sprintf("d=%d/%s%s_m%d_k%d_n%d", d, tn(s.tA), tn(s.tB), s.m, s.k, s.n)
			b.Run(name+"/avx2", func(b *testing.B) { benchGemm(b, false, s.tA, s.tB, s.m, s.n, s.k) })
			b.Run(name+"/avx512", func(b *testing.B) { skipNo512(b); benchGemm(b, true, s.tA, s.tB, s.m, s.n, s.k) })
		}
	}
}

// tn names a transpose flag as BLAS does.
func tn(t bool) string {
	if t {
		return "T"
	}
	return "N"
}

func benchGemm(b *testing.B, wide, tA, tB bool, m, n, k int) {
	if !haveKernel {
		b.Skip("no AVX2/FMA here")
	}
	rng := rand.New(rand.NewPCG(3, 3))
	lda, ldb := k, n
	if tA {
		lda = m
	}
	if tB {
		ldb = k
	}
	x, y, c := randF32(rng, m*k), randF32(rng, k*n), make([]float32, m*n)
	defer func(old bool) { haveKernel512 = old }(haveKernel512)
	haveKernel512 = wide
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		gemm32Go(trans(tA), trans(tB), m, n, k, 1, x, lda, y, ldb, 0, c, n)
	}
	b.ReportMetric(2*float64(m*n*k)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}

// kernelPaths lists the GEMM paths this CPU can run, as (AVX2, AVX-512)
// switches: AVX-512 where it has it, AVX2, and gonum's pure Go.
func kernelPaths() [][2]bool {
	paths := [][2]bool{{false, false}}
	if cpu.X86.HasAVX2 && cpu.X86.HasFMA {
		paths = append(paths, [2]bool{true, false})
	}
	if cpu.X86.HasAVX2 && cpu.X86.HasFMA && cpu.X86.HasAVX512F {
		paths = append(paths, [2]bool{true, true})
	}
	return paths
}

// useKernels switches to path p until the returned function restores the
// CPU's own.
func useKernels(p [2]bool) (restore func()) {
	k0, k5 := haveKernel, haveKernel512
	haveKernel, haveKernel512 = p[0], p[1]
	return func() { haveKernel, haveKernel512 = k0, k5 }
}

// TestSgemmPackedNTSameBits holds sgemmPackedNT, multiplying by a prefix of
// a b packed once for more rows (causal attention's use), to sgemm's bits
// for the same product, on every kernel path, with the block around c's
// m×n block untouched.
func TestSgemmPackedNTSameBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for _, path := range kernelPaths() {
		if !path[0] {
			continue // sgemm needs the kernels
		}
		restore := useKernels(path)
		var bp []float32
		for trial := 0; trial < 300; trial++ {
			rows, k := 1+rng.IntN(70), 1+rng.IntN(40)
			m, n := 1+rng.IntN(30), 1+rng.IntN(rows)
			lda, ldb, ldc := k+rng.IntN(3), k+rng.IntN(3), n+1+rng.IntN(3)
			a, b := randF32(rng, (m-1)*lda+k), randF32(rng, (rows-1)*ldb+k)
			alpha := float32(rng.NormFloat64())
			beta := []float32{0, 1, 0.5}[rng.IntN(3)]
			c0 := randF32(rng, m*ldc)
			if beta == 0 {
				for i := range c0 {
					c0[i] = float32(math.NaN()) // a cleared c must not keep them
				}
			}
			want, got := slices.Clone(c0), slices.Clone(c0)
			sgemm(false, true, m, n, k, alpha, a, lda, b, ldb, beta, want, ldc)
			bp = packNT(bp, b, ldb, rows, k)
			sgemmPackedNT(m, n, k, alpha, a, lda, bp, beta, got, ldc)
			for i := range want {
				if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
					restore()
					t.Fatalf("path %v, m=%d n=%d k=%d of %d rows, beta %v: c[%d] = %v, sgemm gives %v", path, m, n, k, rows, beta, i, got[i], want[i])
				}
			}
		}
		restore()
	}
}

// With beta 0 the AVX2 path writes c without clearing it first (the 6×16
// kernel starts from a row of zeros in the first block of k), and
// sgemmBias without filling it with the bias first: c's old values, NaN
// included, are never read, the columns past n keep theirs, and every
// output has the bits of the set-then-accumulate path (beta 1 on a c
// cleared or filled with the bias), over the serial, row-parallel,
// column-parallel and several-k-block paths, edge tiles, rows of zeros
// with a negative alpha (α·(+0) is −0, and +0 added to it is +0 either
// way), and sgemmPackedNT.
func TestGemm32ZeroBetaSameBits(t *testing.T) {
	if !haveKernel {
		t.Skip("no AVX2+FMA here: gonum's Sgemm runs")
	}
	defer func(old bool) { haveKernel512 = old }(haveKernel512)
	haveKernel512 = false // the AVX-512 path clears c first
	rng := rand.New(rand.NewPCG(8, 21))
	check := func(what string, m, n, ldc int, got, want []float32) {
		t.Helper()
		for i := 0; i < m; i++ {
			for j := 0; j < ldc && i*ldc+j < len(got); j++ {
				g, w := got[i*ldc+j], want[i*ldc+j]
				if j >= n {
					if !math.IsNaN(float64(g)) {
						t.Fatalf("%s: c[%d][%d] past n = %d was written: %v", what, i, j, n, g)
					}
					continue
				}
				if math.Float32bits(g) != math.Float32bits(w) {
					t.Fatalf("%s: c[%d][%d] = %v (%#08x), clear then accumulate gives %v (%#08x)", what, i, j, g, math.Float32bits(g), w, math.Float32bits(w))
				}
			}
		}
	}
	nan := float32(math.NaN())
	for trial := 0; trial < 200; trial++ {
		m, n, k := 1+rng.IntN(40), 1+rng.IntN(50), 1+rng.IntN(40)
		switch trial % 4 {
		case 1:
			m, n, k = 64+rng.IntN(150), 1+rng.IntN(100), 32+rng.IntN(500) // row-parallel, k blocks
		case 2:
			m, n, k = 1+rng.IntN(30), 64+rng.IntN(150), 64+rng.IntN(200) // column-parallel
		}
		g := randGemmOperands(rng, m, n, k)
		if trial%3 == 0 { // rows of op(a) of zeros: the first and one more
			for _, r := range []int{0, rng.IntN(m)} {
				for p := 0; p < k; p++ {
					if g.tA {
						g.a[p*g.lda+r] = 0
					} else {
						g.a[r*g.lda+p] = 0
					}
				}
			}
		}
		alpha := []float32{-2, 0.5, 1}[trial%3]
		size := (m-1)*g.ldc + n
		got, want := make([]float32, size), make([]float32, size)
		for i := range got {
			got[i] = nan
			if i%g.ldc >= n {
				want[i] = nan
			}
		}
		what := fmt.Sprintf("trial %d (%d×%d×%d tA=%v tB=%v alpha=%v)", trial, m, n, k, g.tA, g.tB, alpha)
		gemm32Go(trans(g.tA), trans(g.tB), m, n, k, alpha, g.a, g.lda, g.b, g.ldb, 0, got, g.ldc)
		gemm32Go(trans(g.tA), trans(g.tB), m, n, k, alpha, g.a, g.lda, g.b, g.ldb, 1, want, g.ldc)
		check(what, m, n, g.ldc, got, want)
		bias := randF32(rng, n)
		for i := range got {
			got[i] = nan
			if i%g.ldc < n {
				want[i] = bias[i%g.ldc]
			}
		}
		sgemmBias(g.tA, g.tB, m, n, k, g.a, g.lda, g.b, g.ldb, bias, got, g.ldc)
		gemm32Go(trans(g.tA), trans(g.tB), m, n, k, 1, g.a, g.lda, g.b, g.ldb, 1, want, g.ldc)
		check("bias "+what, m, n, g.ldc, got, want)
		if !g.tA && g.tB && k <= kcBlock {
			for i := range want {
				if i%g.ldc < n {
					want[i] = 0
				}
			}
			gemm32Go(trans(g.tA), trans(g.tB), m, n, k, alpha, g.a, g.lda, g.b, g.ldb, 1, want, g.ldc)
			bp := packNT(nil, g.b, g.ldb, n, k)
			for i := range got {
				got[i] = nan
			}
			sgemmPackedNT(m, n, k, alpha, g.a, g.lda, bp, 0, got, g.ldc)
			check("packed NT "+what, m, n, g.ldc, got, want)
		}
	}
}
