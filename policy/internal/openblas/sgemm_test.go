//go:build openblas && cgo

package openblas

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

func gonumTrans(t bool) blas.Transpose {
	if t {
		return blas.Trans
	}
	return blas.NoTrans
}

// Sgemm agrees with gonum's pure-Go Sgemm on random shapes (the edges of
// OpenBLAS's blocking included), every transpose, leading dimensions wider
// than the matrices, k = 0, and alpha/beta cases. Both round in float32 in
// their own order, so each element may differ by the two sums' error
// bounds, 2·(k+2)·ε·(|α|·Σ|a||b| + |β|·|c|) (k products and sums, the α
// scaling and the β term); a wrong operand or transpose misses by orders of
// magnitude more.
func TestSgemmMatchesGonum(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 9))
	rnd := func(n int) []float32 {
		x := make([]float32, n)
		for i := range x {
			x[i] = float32(rng.NormFloat64())
		}
		return x
	}
	abs := func(x []float32) []float32 {
		y := make([]float32, len(x))
		for i, v := range x {
			y[i] = float32(math.Abs(float64(v)))
		}
		return y
	}
	const eps = 0x1p-24 // float32 unit roundoff
	var ref gonum.Implementation
	var worstAbs, worstRel float64
	for trial := range 400 {
		m, n, k := 1+rng.IntN(70), 1+rng.IntN(70), rng.IntN(40)
		if trial%8 == 0 {
			m, n, k = 64+rng.IntN(300), 64+rng.IntN(300), 200+rng.IntN(600)
		}
		tA, tB := rng.IntN(2) == 1, rng.IntN(2) == 1
		ar, ac := m, k
		if tA {
			ar, ac = k, m
		}
		br, bc := k, n
		if tB {
			br, bc = n, k
		}
		lda, ldb, ldc := max(1, ac+rng.IntN(3)), max(1, bc+rng.IntN(3)), n+rng.IntN(3)
		a, b := rnd(max(0, (ar-1)*lda+ac)), rnd(max(0, (br-1)*ldb+bc))
		c := rnd((m-1)*ldc + n)
		want := append([]float32(nil), c...)
		alpha := []float32{1, 0.25, -2, 0}[rng.IntN(4)]
		beta := []float32{0, 1, 0.5}[rng.IntN(3)]
		bound := abs(c) // |α|·|a|·|b| + |β|·|c|
		ref.Sgemm(gonumTrans(tA), gonumTrans(tB), m, n, k, float32(math.Abs(float64(alpha))), abs(a), lda, abs(b), ldb, float32(math.Abs(float64(beta))), bound, ldc)
		Sgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		ref.Sgemm(gonumTrans(tA), gonumTrans(tB), m, n, k, alpha, a, lda, b, ldb, beta, want, ldc)
		for i := range m {
			for j := range n {
				g, w := float64(c[i*ldc+j]), float64(want[i*ldc+j])
				tol := 2*float64(k+2)*eps*float64(bound[i*ldc+j]) + 1e-30
				require.InDelta(t, w, g, tol, "trial %d (%d×%d×%d tA=%v tB=%v α=%v β=%v) at %d,%d", trial, m, n, k, tA, tB, alpha, beta, i, j)
				worstAbs, worstRel = max(worstAbs, math.Abs(g-w)), max(worstRel, math.Abs(g-w)/tol)
			}
			for j := n; j < ldc && i < m-1; j++ { // padding between rows of c is left alone
				require.Equal(t, want[i*ldc+j], c[i*ldc+j], "trial %d: padding at %d,%d written", trial, i, j)
			}
		}
	}
	t.Logf("largest difference from gonum: %.2g (%.2g of its bound)", worstAbs, worstRel)
}

// Bad arguments panic in Go, before C touches memory.
func TestSgemmPanics(t *testing.T) {
	a, b, c := make([]float32, 6), make([]float32, 6), make([]float32, 4) // 2×3 · 3×2 = 2×2
	for _, tc := range []struct {
		name                   string
		m, n, k, lda, ldb, ldc int
		a, b, c                []float32
		want                   string
	}{
		{"negative m", -1, 2, 3, 3, 2, 2, a, b, c, "openblas: negative dimension"},
		{"lda < k", 2, 2, 3, 2, 2, 2, a, b, c, "openblas: leading dimension smaller than its matrix"},
		{"ldc < n", 2, 2, 3, 3, 2, 1, a, b, c, "openblas: leading dimension smaller than its matrix"},
		{"short a", 2, 2, 3, 3, 2, 2, a[:5], b, c, "openblas: slice shorter than its matrix"},
		{"short b", 2, 2, 3, 3, 2, 2, a, b[:5], c, "openblas: slice shorter than its matrix"},
		{"short c", 2, 2, 3, 3, 2, 2, a, b, c[:3], "openblas: slice shorter than its matrix"},
	} {
		require.PanicsWithValue(t, tc.want, func() {
			Sgemm(false, false, tc.m, tc.n, tc.k, 1, tc.a, tc.lda, tc.b, tc.ldb, 0, tc.c, tc.ldc)
		}, tc.name)
	}
	require.NotPanics(t, func() { Sgemm(false, false, 2, 2, 3, 1, a, 3, b, 2, 0, c, 2) })
}
