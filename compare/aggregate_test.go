package compare

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const tol = 1e-12

func TestCurveAt(t *testing.T) {
	c := Curve{X: []float64{0, 10, 20}, Y: []float64{0, 1, 0.5}}
	require.True(t, c.Valid())
	for _, tc := range []struct{ x, want float64 }{
		{0, 0}, {5, 0.5}, {10, 1}, {15, 0.75}, {20, 0.5}, {2.5, 0.25},
	} {
		assert.InDelta(t, tc.want, c.At(tc.x), tol, "x=%v", tc.x)
	}
	for _, x := range []float64{-1, 20.5, math.NaN()} {
		assert.True(t, math.IsNaN(c.At(x)), "x=%v is outside the curve", x)
	}
	assert.True(t, math.IsNaN(Curve{}.At(0)))
	assert.False(t, Curve{X: []float64{0, 0}, Y: []float64{1, 2}}.Valid(), "repeated x")
	assert.False(t, Curve{X: []float64{0, 1}, Y: []float64{1}}.Valid(), "lengths differ")
	assert.False(t, Curve{}.Valid())
}

func TestGrid(t *testing.T) {
	a := Curve{X: []float64{0, 50, 100}, Y: []float64{0, 0, 0}}
	b := Curve{X: []float64{10, 60, 80}, Y: []float64{0, 0, 0}}
	assert.Equal(t, []float64{10, 20, 30, 40, 50, 60, 70, 80}, Grid([]Curve{a, b}, 8))
	assert.Equal(t, []float64{0, 25, 50, 75, 100}, Grid([]Curve{a}, 5))
	assert.Equal(t, []float64{0}, Grid([]Curve{a}, 1))
	disjoint := Curve{X: []float64{200, 300}, Y: []float64{0, 0}}
	assert.Nil(t, Grid([]Curve{a, disjoint}, 5))
	assert.Nil(t, Grid(nil, 5))
	assert.Nil(t, Grid([]Curve{a, {}}, 5))
	touch := Curve{X: []float64{100, 120}, Y: []float64{0, 0}}
	assert.Equal(t, []float64{100}, Grid([]Curve{a, touch}, 5))
}

func TestAUC(t *testing.T) {
	for _, tc := range []struct {
		name string
		c    Curve
		want float64
	}{
		{"triangle", Curve{X: []float64{0, 10, 20}, Y: []float64{0, 1, 0.5}}, 12.5 / 20},
		{"uneven spacing", Curve{X: []float64{0, 1, 4}, Y: []float64{1, 1, 0}}, 2.5 / 4},
		{"offset x", Curve{X: []float64{100, 300}, Y: []float64{0.2, 0.6}}, 0.4},
		{"constant", Curve{X: []float64{0, 3, 7}, Y: []float64{0.3, 0.3, 0.3}}, 0.3},
		{"one point", Curve{X: []float64{5}, Y: []float64{0.7}}, 0.7},
	} {
		assert.InDelta(t, tc.want, AUC(tc.c), tol, tc.name)
	}
	assert.True(t, math.IsNaN(AUC(Curve{})))
}

func TestReach(t *testing.T) {
	c := Curve{X: []float64{0, 10, 20, 30}, Y: []float64{0.2, 0.6, 0.9, 1}}
	for _, tc := range []struct {
		thr  float64
		want float64
	}{
		{0.8, 10 + 10*(0.2/0.3)},
		{0.6, 10},  // reached exactly at a point
		{0.1, 0},   // already reached at the start
		{0.4, 5},   // halfway between 0.2 and 0.6
		{1, 30},    // reached at the last point
		{0.95, 25}, // between 0.9 and 1
	} {
		x, ok := Reach(c, tc.thr)
		require.True(t, ok, "threshold %v", tc.thr)
		assert.InDelta(t, tc.want, x, tol, "threshold %v", tc.thr)
	}
	x, ok := Reach(c, 1.01)
	assert.False(t, ok)
	assert.True(t, math.IsNaN(x))

	// First crossing wins, even if the curve falls back below later.
	dip := Curve{X: []float64{0, 10, 20, 30}, Y: []float64{0, 1, 0, 1}}
	x, ok = Reach(dip, 0.5)
	require.True(t, ok)
	assert.InDelta(t, 5, x, tol)
	_, ok = Reach(Curve{}, 0)
	assert.False(t, ok)
}

func TestFinal(t *testing.T) {
	assert.Equal(t, 0.4, Final(Curve{X: []float64{0, 1}, Y: []float64{0.1, 0.4}}))
	assert.True(t, math.IsNaN(Final(Curve{})))
}

func TestAggregate(t *testing.T) {
	// y = x/10 and y = x/10 + 0.2, sampled at different x.
	a := Curve{X: []float64{0, 10}, Y: []float64{0, 1}}
	b := Curve{X: []float64{0, 4, 10}, Y: []float64{0.2, 0.6, 1.2}}
	g := Grid([]Curve{a, b}, 3)
	require.Equal(t, []float64{0, 5, 10}, g)
	band := Aggregate([]Curve{a, b}, g, 300, rand.New(rand.NewPCG(1, 1)))
	assert.Equal(t, 2, band.Runs)
	want := []float64{0.1, 0.6, 1.1}
	sd := math.Sqrt(0.02)
	for i := range g {
		assert.InDelta(t, want[i], band.Mean[i], tol)
		assert.InDelta(t, want[i]-sd, band.StdLo[i], tol)
		assert.InDelta(t, want[i]+sd, band.StdHi[i], tol)
		// Two values: the bootstrap interval is their range.
		assert.InDelta(t, want[i]-0.1, band.CILo[i], tol)
		assert.InDelta(t, want[i]+0.1, band.CIHi[i], tol)
	}
}
