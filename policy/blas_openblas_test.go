//go:build openblas

package policy

import (
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
)

// gemgo's kernel against OpenBLAS on the products of the reference model
// (refmodel: 32×32 tokens, d = 64 or 128, 4 heads): the linear layers of a
// training step, the attention products of one sequence and head, and the
// sampler's decode steps over 32 rows.
//
//	go test -tags openblas ./policy/ -run '^$' -bench Gemm32Backends
func BenchmarkGemm32Backends(b *testing.B) {
	shapes := []struct {
		name    string
		tA, tB  bool
		m, n, k int
	}{
		{"linear/d=128", false, false, 1024, 128, 128},
		{"mlp-up/d=128", false, false, 1024, 512, 128},
		{"mlp-dx/d=128", false, true, 1024, 128, 512},
		{"mlp-dw/d=128", true, false, 512, 128, 1024},
		{"linear/d=64", false, false, 1024, 64, 64},
		{"mlp-up/d=64", false, false, 1024, 256, 64},
		{"attn-qk/dh=32", false, true, 32, 32, 32},
		{"attn-qk/dh=16", false, true, 32, 32, 16},
		{"attn-pv/dh=32", false, false, 32, 32, 32},
		{"decode/d=128", false, false, 32, 128, 128},
		{"decode-mlp/d=128", false, false, 32, 512, 128},
		{"decode/d=64", false, false, 32, 64, 64},
	}
	backends := []struct {
		name string
		f    func(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int)
	}{{"gemgo", gemm32Go}, {"openblas", gemm32}}
	rng := rand.New(rand.NewPCG(1, 1))
	for _, s := range shapes {
		a, bm, c := randVec(rng, s.m*s.k), randVec(rng, s.k*s.n), make([]float32, s.m*s.n)
		lda, ldb := s.k, s.n
		if s.tA {
			lda = s.m
		}
		if s.tB {
			ldb = s.k
		}
		for _, be := range backends {
			b.Run(s.name+"/"+be.name, func(b *testing.B) {
				for b.Loop() {
					be.f(trans(s.tA), trans(s.tB), s.m, s.n, s.k, 1, a, lda, bm, ldb, 0, c, s.n)
				}
				b.ReportMetric(float64(2*s.m*s.n*s.k)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			})
		}
	}
}

func randVec(rng *rand.Rand, n int) []float32 {
	x := make([]float32, n)
	for i := range x {
		x[i] = float32(rng.NormFloat64())
	}
	return x
}
