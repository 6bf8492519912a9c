package algo

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const tol = 1e-12

func TestDiscountedReturns(t *testing.T) {
	cases := []struct {
		name    string
		rewards []float64
		gamma   float64
		want    []float64
	}{
		{"empty", nil, 0.9, []float64{}},
		{"one", []float64{2}, 0.9, []float64{2}},
		{"gamma1", []float64{1, 2, 3}, 1, []float64{6, 5, 3}},
		{"gamma0", []float64{1, 2, 3}, 0, []float64{1, 2, 3}},
		{"gamma.5", []float64{1, 0, 4}, 0.5, []float64{2, 2, 4}},
		{"sparse", []float64{0, 0, 0, 1}, 0.9, []float64{0.729, 0.81, 0.9, 1}},
		{"negative", []float64{-0.1}, 0.99, []float64{-0.1}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := DiscountedReturns(c.rewards, c.gamma)
			require.Len(t, got, len(c.want))
			for i := range got {
				assert.InDelta(t, c.want[i], got[i], tol, "G_%d", i)
			}
		})
	}
}

func TestBatchNormalize(t *testing.T) {
	// mean 2.5, population std sqrt(1.25)
	s := math.Sqrt(1.25)
	cases := []struct {
		name string
		x    []float64
		want []float64
	}{
		{"four", []float64{1, 2, 3, 4}, []float64{-1.5 / s, -0.5 / s, 0.5 / s, 1.5 / s}},
		{"two", []float64{0, 1}, []float64{-1, 1}},
		{"one", []float64{5}, []float64{0}},
		{"equal", []float64{3, 3, 3}, []float64{0, 0, 0}},
		{"empty", nil, []float64{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := BatchNormalize(c.x, 1e-9)
			require.Len(t, got, len(c.want))
			for i := range got {
				assert.False(t, math.IsNaN(got[i]))
				assert.InDelta(t, c.want[i], got[i], 1e-8)
			}
		})
	}
}

func TestGroupNormalize(t *testing.T) {
	x := []float64{1, 0, 5, 1, 3}
	groups := []int{7, 7, 2, 7, 2}
	// group 7: {1,0,1} mean 2/3, std sqrt(2/9); group 2: {5,3} mean 4 std 1
	s7 := math.Sqrt(2.0 / 9)
	want := []float64{(1.0 / 3) / s7, (-2.0 / 3) / s7, 1, (1.0 / 3) / s7, -1}
	got := GroupNormalize(x, groups, 1e-9, true)
	for i := range want {
		assert.InDelta(t, want[i], got[i], 1e-8)
	}
	drgrpo := GroupNormalize(x, groups, 1e-9, false)
	wantDr := []float64{1.0 / 3, -2.0 / 3, 1, 1.0 / 3, -1}
	for i := range wantDr {
		assert.InDelta(t, wantDr[i], drgrpo[i], tol)
	}
	// Zero-variance group and a group of one: zeros, no NaN.
	got = GroupNormalize([]float64{1, 1, 1, 9}, []int{0, 0, 0, 1}, 1e-9, true)
	assert.Equal(t, []float64{0, 0, 0, 0}, got)
}

func TestLeaveOneOut(t *testing.T) {
	x := []float64{1, 0, 0, 1, 4}
	groups := []int{0, 0, 0, 0, 1}
	// group 0 sum 2, n 4: x_i − (2 − x_i)/3
	want := []float64{1 - 1.0/3, -2.0 / 3, -2.0 / 3, 1 - 1.0/3, 0}
	got := LeaveOneOut(x, groups)
	for i := range want {
		assert.InDelta(t, want[i], got[i], tol)
	}
	// Two members: each against the other.
	got = LeaveOneOut([]float64{3, 1}, []int{4, 4})
	assert.InDelta(t, 2, got[0], tol)
	assert.InDelta(t, -2, got[1], tol)
}

func TestGAE(t *testing.T) {
	// Hand-computed: γ 0.9, λ 0.8.
	r := []float64{0, 0, 1}
	v := []float64{0.5, 0.6, 0.7}
	next := []float64{0.6, 0.7, 0}
	term := []bool{false, false, true}
	adv, ret := GAE(r, v, next, term, 0.9, 0.8)
	d2 := 1 - 0.7
	d1 := 0 + 0.9*0.7 - 0.6
	d0 := 0 + 0.9*0.6 - 0.5
	a2 := d2
	a1 := d1 + 0.72*a2
	a0 := d0 + 0.72*a1
	want := []float64{a0, a1, a2}
	for i := range want {
		assert.InDelta(t, want[i], adv[i], tol, "A_%d", i)
		assert.InDelta(t, want[i]+v[i], ret[i], tol, "R_%d", i)
	}
	// Truncated last turn: bootstrap from the next state's value.
	adv, _ = GAE([]float64{0.2}, []float64{0.1}, []float64{0.5}, []bool{false}, 0.9, 0.95)
	assert.InDelta(t, 0.2+0.45-0.1, adv[0], tol)
	// Terminated: no bootstrap even with a nonzero next value.
	adv, _ = GAE([]float64{0.2}, []float64{0.1}, []float64{0.5}, []bool{true}, 0.9, 0.95)
	assert.InDelta(t, 0.1, adv[0], tol)
}

func TestNormalizedMoments(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 200; trial++ {
		n := 2 + rng.IntN(100)
		x := make([]float64, n)
		scale := math.Pow(10, float64(rng.IntN(7)-3))
		for i := range x {
			x[i] = rng.NormFloat64()*scale + rng.Float64()*10
		}
		y := BatchNormalize(x, 1e-9)
		m, s := meanStd(y)
		assert.InDelta(t, 0, m, 1e-9)
		assert.InDelta(t, 1, s, 1e-6)
	}
}

func TestGAELambdaOneIsDiscountedReturn(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 200; trial++ {
		n := 1 + rng.IntN(12)
		r := make([]float64, n)
		for i := range r {
			r[i] = rng.NormFloat64()
		}
		gamma := rng.Float64()
		zeros := make([]float64, n)
		term := make([]bool, n)
		term[n-1] = true
		adv, ret := GAE(r, zeros, zeros, term, gamma, 1)
		g := DiscountedReturns(r, gamma)
		for i := range g {
			assert.InDelta(t, g[i], adv[i], 1e-9)
			assert.InDelta(t, g[i], ret[i], 1e-9)
		}
	}
}

func TestNoNaNOnDegenerateInput(t *testing.T) {
	for _, x := range [][]float64{{0}, {0, 0}, {1e300, 1e300}, {-1, -1, -1}} {
		groups := make([]int, len(x))
		for _, v := range append(append(BatchNormalize(x, 1e-9), GroupNormalize(x, groups, 1e-9, true)...), LeaveOneOut(x, groups)...) {
			assert.False(t, math.IsNaN(v) || math.IsInf(v, 0), "x=%v", x)
		}
	}
}
