package stats

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const tol = 1e-12

func TestMeanStdQuantile(t *testing.T) {
	m, s := MeanStd([]float64{1, 2, 3, 4})
	assert.InDelta(t, 2.5, m, tol)
	assert.InDelta(t, math.Sqrt(5.0/3), s, tol)
	m, s = MeanStd([]float64{7})
	assert.Equal(t, 7.0, m)
	assert.Equal(t, 0.0, s)

	sorted := []float64{1, 2, 3, 4}
	for _, tc := range []struct{ q, want float64 }{
		{0, 1}, {0.25, 1.75}, {0.5, 2.5}, {0.9, 3.7}, {1, 4},
	} {
		assert.InDelta(t, tc.want, Quantile(sorted, tc.q), tol, "q=%v", tc.q)
	}
	assert.Equal(t, 5.0, Quantile([]float64{5}, 0.3))
}

func TestBootstrapCI(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	lo, hi := BootstrapCI([]float64{0.3, 0.3, 0.3}, 1000, 0.95, rng)
	assert.Equal(t, 0.3, lo)
	assert.Equal(t, 0.3, hi)
	lo, hi = BootstrapCI([]float64{0.4}, 1000, 0.95, rng)
	assert.Equal(t, [2]float64{0.4, 0.4}, [2]float64{lo, hi})
	lo, hi = BootstrapCI([]float64{1, 3}, 0, 0.95, rng)
	assert.Equal(t, [2]float64{2, 2}, [2]float64{lo, hi}, "no resamples: the mean")

	// Two values: resample means are 0, 0.5, 1 with probabilities ¼, ½, ¼,
	// so the 2.5% and 97.5% quantiles of many resamples are 0 and 1.
	lo, hi = BootstrapCI([]float64{0, 1}, 4000, 0.95, rng)
	assert.Equal(t, 0.0, lo)
	assert.Equal(t, 1.0, hi)

	// The same seed gives the same interval.
	v := []float64{0.1, 0.5, 0.35, 0.8, 0.2}
	l1, h1 := BootstrapCI(v, 500, 0.95, rand.New(rand.NewPCG(7, 7)))
	l2, h2 := BootstrapCI(v, 500, 0.95, rand.New(rand.NewPCG(7, 7)))
	assert.Equal(t, [2]float64{l1, h1}, [2]float64{l2, h2})

	// Over many random samples the interval holds the sample mean, lies
	// within [min, max], and a 50% interval is inside the 95% one.
	for seed := range uint64(200) {
		r := rand.New(rand.NewPCG(seed, 3))
		v := make([]float64, 2+r.IntN(8))
		lo, hi := math.Inf(1), math.Inf(-1)
		for i := range v {
			v[i] = r.NormFloat64()
			lo, hi = min(lo, v[i]), max(hi, v[i])
		}
		m, _ := MeanStd(v)
		l95, h95 := BootstrapCI(v, 400, 0.95, rand.New(rand.NewPCG(seed, 4)))
		l50, h50 := BootstrapCI(v, 400, 0.5, rand.New(rand.NewPCG(seed, 4)))
		require.LessOrEqual(t, lo-1e-12, l95)
		require.LessOrEqual(t, l95, l50)
		require.LessOrEqual(t, l50, m+1e-9)
		require.LessOrEqual(t, m-1e-9, h50)
		require.LessOrEqual(t, h50, h95)
		require.LessOrEqual(t, h95, hi+1e-12)
	}
}

func TestSummarize(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	s := Summarize([]float64{1, math.NaN(), 3}, 200, rng)
	assert.Equal(t, 2, s.N)
	assert.InDelta(t, 2, s.Mean, tol)
	assert.InDelta(t, math.Sqrt2, s.Std, tol)
	assert.True(t, s.Lo >= 1 && s.Hi <= 3 && s.Lo <= 2 && s.Hi >= 2)
	s = Summarize([]float64{math.NaN()}, 200, rng)
	assert.Equal(t, 0, s.N)
	assert.True(t, math.IsNaN(s.Mean) && math.IsNaN(s.Lo))
}
