package stats

import (
	"math"
	"math/rand/v2"
)

// exactPairs is the most pairs the permutation test enumerates exactly
// (2^16 sign patterns); beyond it the test samples patterns.
const exactPairs = 16

// PairedTest is the two-sided paired permutation (sign-flip) test of the
// mean of d, the per-seed differences between two arms: under the null
// hypothesis that the two arms are exchangeable on each seed, each
// difference is as likely to have either sign, so the p-value is the
// fraction of the 2^n sign patterns whose mean is at least as far from 0
// as the observed one. Up to 16 pairs every pattern is enumerated (exact);
// beyond, resamples random patterns are drawn from rng and the p-value is
// (hits+1)/(resamples+1). Zero differences stay zero under every flip.
// An empty d gives p = 1.
func PairedTest(d []float64, resamples int, rng *rand.Rand) float64 {
	n := len(d)
	if n == 0 {
		return 1
	}
	obs := math.Abs(sum(d))
	// A pattern counts when its |sum| reaches the observed one up to
	// rounding: the identity pattern always counts.
	tol := 1e-12 * (1 + obs)
	if n <= exactPairs {
		hits := 0
		for mask := uint32(0); mask < 1<<n; mask++ {
			var s float64
			for i, x := range d {
				if mask&(1<<i) != 0 {
					x = -x
				}
				s += x
			}
			if math.Abs(s) >= obs-tol {
				hits++
			}
		}
		return float64(hits) / float64(uint32(1)<<n)
	}
	hits := 0
	for range resamples {
		var s float64
		for _, x := range d {
			if rng.IntN(2) == 0 {
				x = -x
			}
			s += x
		}
		if math.Abs(s) >= obs-tol {
			hits++
		}
	}
	return float64(hits+1) / float64(resamples+1)
}

// MinPairedP is the smallest p-value PairedTest can return for n nonzero
// differences: 2/2^n (the observed pattern and its mirror). With 5 seeds it
// is 0.0625, so no pair of arms can be separated at p < 0.05 on 5 seeds;
// 6 seeds are the fewest that can.
func MinPairedP(n int) float64 {
	if n < 1 {
		return 1
	}
	if n > 62 {
		return 0
	}
	return 2 / float64(uint64(1)<<n)
}

func sum(v []float64) float64 {
	var s float64
	for _, x := range v {
		s += x
	}
	return s
}

// Nonzero counts the nonzero values of d: the differences that
// MinPairedP counts.
func Nonzero(d []float64) int {
	n := 0
	for _, x := range d {
		if x != 0 {
			n++
		}
	}
	return n
}
