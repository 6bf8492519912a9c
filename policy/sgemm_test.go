package policy

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// gemm32 agrees with gonum's reference Sgemm for every transpose, odd sizes,
// leading dimensions wider than the matrices, and alpha/beta cases.
func TestGemm32MatchesGonum(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	rnd := func(n int) []float32 {
		x := make([]float32, n)
		for i := range x {
			x[i] = float32(rng.NormFloat64())
		}
		return x
	}
	for trial := 0; trial < 300; trial++ {
		m, n, k := 1+rng.IntN(70), 1+rng.IntN(70), 1+rng.IntN(40)
		if trial%10 == 0 {
			m, n, k = 64+rng.IntN(200), 1+rng.IntN(160), 32+rng.IntN(600) // the parallel path, several k blocks
		}
		if trial%10 == 5 {
			m, n, k = 1+rng.IntN(40), 64+rng.IntN(200), 64+rng.IntN(300) // few rows: split by columns
		}
		g := randGemmOperands(rng, m, n, k)
		tA, tB, a, lda, b, ldb, ldc := g.tA, g.tB, g.a, g.lda, g.b, g.ldb, g.ldc
		c := rnd((m-1)*ldc + n)
		want := append([]float32(nil), c...)
		alpha := []float32{1, 0.25, -2}[rng.IntN(3)]
		beta := []float32{0, 1, 0.5}[rng.IntN(3)]
		gemm32(trans(tA), trans(tB), m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		blasImpl.Sgemm(trans(tA), trans(tB), m, n, k, alpha, a, lda, b, ldb, beta, want, ldc)
		for i := 0; i < m; i++ {
			for j := 0; j < n; j++ {
				require.InDelta(t, want[i*ldc+j], c[i*ldc+j], 1e-4*(1+math.Abs(float64(want[i*ldc+j]))), "trial %d (%d×%d×%d tA=%v tB=%v) at %d,%d", trial, m, n, k, tA, tB, i, j)
			}
		}
	}
}

func TestExp32(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	for i := 0; i < 100000; i++ {
		x := float32(rng.Float64()*170 - 86)
		want := math.Exp(float64(x))
		require.InEpsilon(t, want, float64(exp32(x)), 4e-7, "exp32(%v)", x)
	}
	require.Equal(t, float32(0), exp32(-100))
	require.True(t, math.IsInf(float64(exp32(100)), 1))
	require.Equal(t, float32(1), exp32(0))
}

func TestTanh32(t *testing.T) {
	for i := -400000; i <= 400000; i++ {
		x := float32(i) / 20000 // −20 … 20
		want := math.Tanh(float64(x))
		got := float64(tanh32(x))
		require.InDelta(t, want, got, 4e-7, "tanh32(%v)", x)
		if math.Abs(want) > 1e-6 {
			require.InEpsilon(t, want, got, 4e-7, "tanh32(%v)", x)
		}
	}
}

// gemmOperands is a random product's operands for op(a) m×k and op(b) k×n:
// the transposes, leading dimensions up to 2 wider than the matrices, and
// a and b; ldc is c's leading dimension.
type gemmOperands struct {
	tA, tB        bool
	lda, ldb, ldc int
	a, b          []float32
}

func randGemmOperands(rng *rand.Rand, m, n, k int) gemmOperands {
	g := gemmOperands{tA: rng.IntN(2) == 1, tB: rng.IntN(2) == 1}
	ar, ac := m, k
	if g.tA {
		ar, ac = k, m
	}
	br, bc := k, n
	if g.tB {
		br, bc = n, k
	}
	g.lda, g.ldb, g.ldc = ac+rng.IntN(3), bc+rng.IntN(3), n+rng.IntN(3)
	g.a, g.b = randF32(rng, (ar-1)*g.lda+ac), randF32(rng, (br-1)*g.ldb+bc)
	return g
}

func randF32(rng *rand.Rand, n int) []float32 {
	x := make([]float32, n)
	for i := range x {
		x[i] = float32(rng.NormFloat64())
	}
	return x
}
