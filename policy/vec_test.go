package policy

import (
	"math"
	"math/rand/v2"
	"testing"
)

// vecInputs returns n values over the ranges the kernels see, with the
// edge cases (zeros, clamp and overflow limits, infinities, NaN) mixed in.
func vecInputs(rng *rand.Rand, n int) []float32 {
	special := []float32{0, float32(math.Copysign(0, -1)), 1, -1, 7.905311, -7.905311, 8, -8, 9.7, -9.7,
		-87, -87.00001, 88, 88.00001, -200, 200, 1e-30, -1e-30, 1e30, -1e30,
		float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN())}
	x := make([]float32, n)
	for i := range x {
		switch rng.IntN(4) {
		case 0:
			x[i] = special[rng.IntN(len(special))]
		case 1:
			x[i] = float32(rng.NormFloat64() * 3)
		case 2:
			x[i] = float32(rng.Float64()*180 - 90)
		default:
			x[i] = math.Float32frombits(rng.Uint32()) // any bit pattern
		}
	}
	return x
}

func sameBits(t *testing.T, what string, x, got, want []float32) {
	t.Helper()
	for i := range want {
		g, w := got[i], want[i]
		if math.Float32bits(g) != math.Float32bits(w) && !(g != g && w != w) {
			t.Fatalf("%s(%v) at %d: vector %v (%#x), scalar %v (%#x)", what, x[i], i, g, math.Float32bits(g), w, math.Float32bits(w))
		}
	}
}

// The vector GELU, GELU gradient and exp equal the scalar code bit for
// bit (so the kernels change no number of a training run), at every
// length (vector body plus scalar tail) and on edge values.
func TestVectorKernelsMatchScalar(t *testing.T) {
	if !haveKernel {
		t.Skip("no AVX2/FMA here: the scalar code is the only path")
	}
	rng := rand.New(rand.NewPCG(7, 7))
	for trial := 0; trial < 400; trial++ {
		n := rng.IntN(70)
		if trial%50 == 0 {
			n = 4096 + rng.IntN(64)
		}
		x, dy := vecInputs(rng, n), vecInputs(rng, n)
		for i := range dy {
			if math.IsNaN(float64(dy[i])) || math.IsInf(float64(dy[i]), 0) {
				dy[i] = 0.5
			}
		}
		y, th := make([]float32, n), make([]float32, n)
		gelu32(y, x, th)
		y2 := make([]float32, n)
		gelu32(y2, x, nil)
		wy, wth := make([]float32, n), make([]float32, n)
		for i, v := range x {
			wth[i] = tanh32(geluC * (v + 0.044715*v*v*v))
			wy[i] = 0.5 * v * (1 + wth[i])
		}
		sameBits(t, "gelu", x, y, wy)
		sameBits(t, "gelu without th", x, y2, wy)
		sameBits(t, "gelu's tanh", x, th, wth)

		dx := make([]float32, n)
		geluBwd32(dx, dy, x, th)
		wdx := make([]float32, n)
		for i, v := range x {
			tt := wth[i]
			wdx[i] = dy[i] * (0.5*(1+tt) + 0.5*v*(1-tt*tt)*geluC*(1+3*0.044715*v*v))
		}
		sameBits(t, "gelu backward", x, dx, wdx)

		e := append([]float32(nil), x...)
		expSlice(e)
		we := make([]float32, n)
		for i, v := range x {
			we[i] = exp32(v)
		}
		sameBits(t, "exp", x, e, we)
	}
}
