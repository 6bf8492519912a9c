package compare

import (
	"math"
	"math/rand/v2"
	"slices"

	"github.com/gemgo/gemgo/stats"
)

// Curve is one run's metric: Y[i] at X[i], X strictly increasing.
type Curve struct {
	X, Y []float64
}

// Valid reports whether c has at least one point, as many Y as X, finite X
// values in strictly increasing order.
func (c Curve) Valid() bool {
	if len(c.X) == 0 || len(c.X) != len(c.Y) {
		return false
	}
	for i, x := range c.X {
		if math.IsNaN(x) || math.IsInf(x, 0) || (i > 0 && x <= c.X[i-1]) {
			return false
		}
	}
	return true
}

// At returns c linearly interpolated at x, or NaN when x lies outside
// [X[0], X[last]] (a curve is never extrapolated).
func (c Curve) At(x float64) float64 {
	n := len(c.X)
	if n == 0 || x < c.X[0] || x > c.X[n-1] || math.IsNaN(x) {
		return math.NaN()
	}
	i, found := slices.BinarySearch(c.X, x)
	if found {
		return c.Y[i]
	}
	x0, x1, y0, y1 := c.X[i-1], c.X[i], c.Y[i-1], c.Y[i]
	return y0 + (y1-y0)*(x-x0)/(x1-x0)
}

// Grid returns n evenly spaced x values over the range every curve covers:
// [max of the first x, min of the last x]. It returns nil when the curves
// share no range, and the single shared x when the range is one point.
func Grid(curves []Curve, n int) []float64 {
	if len(curves) == 0 || n < 1 {
		return nil
	}
	lo, hi := math.Inf(-1), math.Inf(1)
	for _, c := range curves {
		if len(c.X) == 0 {
			return nil
		}
		lo = max(lo, c.X[0])
		hi = min(hi, c.X[len(c.X)-1])
	}
	if lo > hi {
		return nil
	}
	if lo == hi || n == 1 {
		return []float64{lo}
	}
	g := make([]float64, n)
	for i := range g {
		g[i] = lo + (hi-lo)*float64(i)/float64(n-1)
	}
	g[n-1] = hi
	return g
}

// Band is the mean of several curves on a grid with two bands around it:
// mean ± sample std, and a percentile-bootstrap 95% interval of the mean.
type Band struct {
	X, Mean      []float64
	StdLo, StdHi []float64
	CILo, CIHi   []float64
	Runs         int
}

// Aggregate aligns curves on grid and summarises them point by point.
// Resamples is the number of bootstrap resamples; rng makes them
// reproducible.
func Aggregate(curves []Curve, grid []float64, resamples int, rng *rand.Rand) Band {
	b := Band{X: grid, Runs: len(curves)}
	vals := make([]float64, len(curves))
	for _, x := range grid {
		for i, c := range curves {
			vals[i] = c.At(x)
		}
		s := stats.Summarize(vals, resamples, rng)
		b.Mean = append(b.Mean, s.Mean)
		b.StdLo = append(b.StdLo, s.Mean-s.Std)
		b.StdHi = append(b.StdHi, s.Mean+s.Std)
		b.CILo = append(b.CILo, s.Lo)
		b.CIHi = append(b.CIHi, s.Hi)
	}
	return b
}

// AUC is the area under c by the trapezoid rule, divided by the width of
// its x range: the curve's average height. A one-point curve's AUC is its
// value; an empty curve's is NaN.
func AUC(c Curve) float64 {
	n := len(c.X)
	switch {
	case n == 0:
		return math.NaN()
	case n == 1:
		return c.Y[0]
	}
	var area float64
	for i := 1; i < n; i++ {
		area += (c.X[i] - c.X[i-1]) * (c.Y[i] + c.Y[i-1]) / 2
	}
	return area / (c.X[n-1] - c.X[0])
}

// Reach returns the first x at which c reaches threshold (y ≥ threshold),
// interpolating linearly between the last point below and the first at or
// above it, and false when c never reaches it.
func Reach(c Curve, threshold float64) (float64, bool) {
	for i, y := range c.Y {
		if y < threshold || math.IsNaN(y) {
			continue
		}
		if i == 0 || math.IsNaN(c.Y[i-1]) {
			return c.X[i], true
		}
		x0, x1, y0 := c.X[i-1], c.X[i], c.Y[i-1]
		return x0 + (x1-x0)*(threshold-y0)/(y-y0), true
	}
	return math.NaN(), false
}

// Final is the last y of c, NaN for an empty curve.
func Final(c Curve) float64 {
	if len(c.Y) == 0 {
		return math.NaN()
	}
	return c.Y[len(c.Y)-1]
}
