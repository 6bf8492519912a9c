package stats

import (
	"math"
	"math/rand/v2"
	"slices"
)

// Stat summarises one number measured over several seeds.
type Stat struct {
	N      int     // values summarised (NaN values are left out)
	Mean   float64 // NaN when N = 0
	Std    float64 // sample standard deviation (n − 1); 0 when N = 1
	Lo, Hi float64 // percentile-bootstrap 95% interval of the mean
}

// Summarize returns the mean, sample std and a 95% percentile-bootstrap
// interval of the mean of the non-NaN values. With resamples < 1 the
// interval is [Mean, Mean].
func Summarize(values []float64, resamples int, rng *rand.Rand) Stat {
	var v []float64
	for _, x := range values {
		if !math.IsNaN(x) {
			v = append(v, x)
		}
	}
	s := Stat{N: len(v), Mean: math.NaN(), Std: math.NaN(), Lo: math.NaN(), Hi: math.NaN()}
	if len(v) == 0 {
		return s
	}
	s.Mean, s.Std = MeanStd(v)
	s.Lo, s.Hi = BootstrapCI(v, resamples, 0.95, rng)
	return s
}

// MeanStd returns the mean and the sample standard deviation (divisor
// n − 1; 0 for a single value) of v, which must not be empty.
func MeanStd(v []float64) (mean, std float64) {
	for _, x := range v {
		mean += x
	}
	mean /= float64(len(v))
	if len(v) < 2 {
		return mean, 0
	}
	var ss float64
	for _, x := range v {
		ss += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(ss / float64(len(v)-1))
}

// BootstrapCI is the percentile bootstrap interval of the mean of v at the
// given level (0.95 for 95%): the (1−level)/2 and (1+level)/2 quantiles of
// the means of resamples drawn from v with replacement. With resamples < 1
// or one value it returns [mean, mean].
func BootstrapCI(v []float64, resamples int, level float64, rng *rand.Rand) (lo, hi float64) {
	mean, _ := MeanStd(v)
	if resamples < 1 || len(v) == 1 {
		return mean, mean
	}
	means := make([]float64, resamples)
	for r := range means {
		var sum float64
		for range v {
			sum += v[rng.IntN(len(v))]
		}
		means[r] = sum / float64(len(v))
	}
	slices.Sort(means)
	return Quantile(means, (1-level)/2), Quantile(means, (1+level)/2)
}

// Quantile is the q-quantile of sorted by linear interpolation between
// order statistics (Hyndman–Fan type 7, as numpy's default). sorted must be
// non-empty and ascending.
func Quantile(sorted []float64, q float64) float64 {
	h := q * float64(len(sorted)-1)
	i := int(math.Floor(h))
	if i >= len(sorted)-1 {
		return sorted[len(sorted)-1]
	}
	if i < 0 {
		return sorted[0]
	}
	return sorted[i] + (h-float64(i))*(sorted[i+1]-sorted[i])
}
