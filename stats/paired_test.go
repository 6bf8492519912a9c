package stats

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPairedTestExactValues(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	// Five equal positive differences: only the pattern itself and its
	// mirror reach |sum| = 5 out of 32.
	assert.InDelta(t, 2.0/32, PairedTest([]float64{1, 1, 1, 1, 1}, 0, rng), 1e-15)
	assert.InDelta(t, MinPairedP(5), PairedTest([]float64{0.2, 0.3, 0.1, 0.4, 0.5}, 0, rng), 1e-15)
	// Six: 2/64 < 0.05.
	assert.InDelta(t, 2.0/64, PairedTest([]float64{1, 2, 3, 4, 5, 6}, 0, rng), 1e-15)
	// {1, −1}: the sums are −2, 0, 0, 2; the observed 0 is reached by all.
	assert.Equal(t, 1.0, PairedTest([]float64{1, -1}, 0, rng))
	// {3, 1}: sums 4, 2, −2, −4; |sum| ≥ 4 for 2 of 4.
	assert.Equal(t, 0.5, PairedTest([]float64{3, 1}, 0, rng))
	// {3, 1, 1}: the 8 sums are ±5, ±3, ±1, ±1 (flipping one of the 1s), so
	// |sum| ≥ 5 for 2 patterns, ≥ 3 for 4.
	assert.Equal(t, 0.25, PairedTest([]float64{3, 1, 1}, 0, rng))
	assert.Equal(t, 0.75, PairedTest([]float64{3, -1, 1}, 0, rng), "observed |sum| 3: ±5, ±3, ±3 reach it")
	// Zeros never change the sum: p is that of the nonzero ones.
	assert.Equal(t, 0.5, PairedTest([]float64{3, 0, 1, 0}, 0, rng))
	assert.Equal(t, 1.0, PairedTest(nil, 0, rng))
	assert.Equal(t, 1.0, PairedTest([]float64{0, 0, 0}, 0, rng))
	assert.Equal(t, 1.0, MinPairedP(0))
	assert.Equal(t, 0.0625, MinPairedP(5))
}

// A brute-force count over the patterns, written as plainly as possible.
func bruteP(d []float64) float64 {
	n := len(d)
	obs := 0.0
	for _, x := range d {
		obs += x
	}
	hits := 0
	for mask := 0; mask < 1<<n; mask++ {
		s := 0.0
		for i := range n {
			if mask>>i&1 == 1 {
				s -= d[i]
			} else {
				s += d[i]
			}
		}
		if math.Abs(s) >= math.Abs(obs)-1e-9 {
			hits++
		}
	}
	return float64(hits) / float64(int(1)<<n)
}

func TestPairedTestProperties(t *testing.T) {
	for seed := range uint64(300) {
		r := rand.New(rand.NewPCG(seed, 9))
		d := make([]float64, 1+r.IntN(10))
		for i := range d {
			d[i] = float64(r.IntN(7)-3) / 4 // ties and zeros are common
		}
		p := PairedTest(d, 0, r)
		require.InDelta(t, bruteP(d), p, 1e-12, "d=%v", d)
		// p is a probability no smaller than the pattern and its mirror.
		require.True(t, p > 0 && p <= 1)
		require.GreaterOrEqual(t, p, MinPairedP(Nonzero(d))-1e-15)
		// The test is symmetric in the sign and the order of the pairs.
		neg := make([]float64, len(d))
		for i := range d {
			neg[len(d)-1-i] = -d[i]
		}
		require.InDelta(t, p, PairedTest(neg, 0, r), 1e-12)
	}
	// Beyond 16 pairs the sampled p-value is close to the exact one; 20
	// pairs of +1: the exact p is 2/2^20, the sampled one (hits+1)/(n+1).
	d := make([]float64, 20)
	for i := range d {
		d[i] = 1
	}
	p := PairedTest(d, 4000, rand.New(rand.NewPCG(3, 3)))
	assert.InDelta(t, 1.0/4001, p, 2.0/4001, "almost no pattern reaches the observed sum")
	// 20 differences with mean near 0: p near 1.
	for i := range d {
		d[i] = float64(i%2*2 - 1)
	}
	p = PairedTest(d, 4000, rand.New(rand.NewPCG(3, 3)))
	assert.Greater(t, p, 0.95)
}
