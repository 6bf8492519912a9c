package policy

import (
	"math"
	"math/rand/v2"
	"testing"
)

// lnOneRow is layer norm one row at a time, the loops the blocked kernels
// must reproduce bit for bit: forward, then backward when dy is set.
func lnOneRow[T Float](y, x, g, b, mean, rstd, dx, dg, db, dy []T, n, d int) {
	for i := 0; i < n; i++ {
		row := x[i*d : (i+1)*d]
		var s T
		for _, v := range row {
			s += v
		}
		mu := s / T(d)
		var s2 T
		for _, v := range row {
			c := v - mu
			s2 += c * c
		}
		r := T(1 / math.Sqrt(float64(s2/T(d))+lnEps))
		mean[i], rstd[i] = mu, r
		for j, v := range row {
			y[i*d+j] = (v-mu)*r*g[j] + b[j]
		}
	}
	if dy == nil {
		return
	}
	for i := 0; i < n; i++ {
		row, drow := x[i*d:(i+1)*d], dy[i*d:(i+1)*d]
		mu, r := mean[i], rstd[i]
		var sdx, sdxx T
		for j, v := range row {
			xh := (v - mu) * r
			dxh := drow[j] * g[j]
			sdx += dxh
			sdxx += dxh * xh
			if dg != nil {
				dg[j] += drow[j] * xh
			}
			if db != nil {
				db[j] += drow[j]
			}
		}
		if dx == nil {
			continue
		}
		sdx /= T(d)
		sdxx /= T(d)
		for j, v := range row {
			xh := (v - mu) * r
			dx[i*d+j] = r * (drow[j]*g[j] - sdx - xh*sdxx)
		}
	}
}

// The row-blocked layer norm gives the one-row loops' bits: every output,
// mean, rstd and gradient, for row counts on both sides of the block (the
// tail rows), in float32 and float64, with and without dx, dg and db.
func TestLayerNormBlockedSameBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for trial := 0; trial < 200; trial++ {
		n, d := rng.IntN(3*lnBlock+2), 1+rng.IntN(70)
		checkLayerNorm[float32](t, rng, n, d, trial%4)
		checkLayerNorm[float64](t, rng, n, d, trial%4)
	}
	// a big batch takes layerNormFwd's parallel path
	checkLayerNorm[float32](t, rng, 1100, 32, 0)
}

func checkLayerNorm[T Float](t *testing.T, rng *rand.Rand, n, d, nils int) {
	t.Helper()
	vec := func(k int, scale float64) []T {
		v := make([]T, k)
		for i := range v {
			v[i] = T(rng.NormFloat64()*scale + 0.3)
		}
		return v
	}
	x, g, b, dy := vec(n*d, 2), vec(d, 1), vec(d, 1), vec(n*d, 1)
	dg0, db0 := vec(d, 1), vec(d, 1) // gradients accumulate onto what is there
	type out struct{ y, mean, rstd, dx, dg, db []T }
	run := func(blocked bool) out {
		o := out{y: make([]T, n*d), mean: make([]T, n), rstd: make([]T, n), dx: make([]T, n*d),
			dg: append([]T(nil), dg0...), db: append([]T(nil), db0...)}
		dx, dg, db := o.dx, o.dg, o.db
		switch nils {
		case 1:
			dx = nil
		case 2:
			dg, db = nil, nil
		case 3:
			dx, db = nil, nil
		}
		if blocked {
			layerNormFwd(o.y, x, g, b, o.mean, o.rstd, n, d)
			layerNormBwd(dx, dg, db, dy, x, g, o.mean, o.rstd, n, d)
		} else {
			lnOneRow(o.y, x, g, b, o.mean, o.rstd, dx, dg, db, dy, n, d)
		}
		return o
	}
	got, want := run(true), run(false)
	for _, c := range []struct {
		name      string
		got, want []T
	}{{"y", got.y, want.y}, {"mean", got.mean, want.mean}, {"rstd", got.rstd, want.rstd},
		{"dx", got.dx, want.dx}, {"dg", got.dg, want.dg}, {"db", got.db, want.db}} {
		for i := range c.want {
			if math.Float64bits(float64(c.got[i])) != math.Float64bits(float64(c.want[i])) {
				t.Fatalf("%T n=%d d=%d nils=%d: %s[%d] = %v, one row at a time %v", c.got[i], n, d, nils, c.name, i, c.got[i], c.want[i])
			}
		}
	}
}

// BenchmarkLayerNorm times a forward and backward layer norm of a d = 32
// batch (the hard config's width), blocked against one row at a time.
func BenchmarkLayerNorm(b *testing.B) {
	const n, d = 500, 32 // below layerNormFwd's parallel threshold (n·d < 2^14)
	rng := rand.New(rand.NewPCG(1, 2))
	vec := func(k int) []float32 {
		v := make([]float32, k)
		for i := range v {
			v[i] = float32(rng.NormFloat64())
		}
		return v
	}
	x, g, bias, dy := vec(n*d), vec(d), vec(d), vec(n*d)
	y, dx, dg, db := make([]float32, n*d), make([]float32, n*d), make([]float32, d), make([]float32, d)
	mean, rstd := make([]float32, n), make([]float32, n)
	b.Run("blocked", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			layerNormFwd(y, x, g, bias, mean, rstd, n, d)
			layerNormBwd(dx, dg, db, dy, x, g, mean, rstd, n, d)
		}
	})
	b.Run("one_row", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			lnOneRow(y, x, g, bias, mean, rstd, dx, dg, db, dy, n, d)
		}
	})
}
