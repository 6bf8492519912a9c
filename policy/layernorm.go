package policy

import "math"

// Layer norm, forward and backward. Each row's sums run over its elements
// in order, as in the plain one-row loop; the loops below only take four
// rows at a time, so that the four rows' dependent additions overlap in
// the CPU instead of waiting on each other. Every value keeps its bits
// (TestLayerNormBlockedSameBits), and nothing needs a vector unit.

// lnBlock is the rows a layer-norm loop advances together.
const lnBlock = 4

// layerNormFwd normalises each of the n rows of x (width d) and applies gain g
// and shift b; it stores each row's mean and reciprocal std in mean and rstd.
func layerNormFwd[T Float](y, x, g, b, mean, rstd []T, n, d int) {
	if n*d >= 1<<14 {
		parallelFor(n, func(lo, hi, _ int) {
			layerNormRows(y, x, g, b, mean, rstd, lo, hi, d)
		})
		return
	}
	layerNormRows(y, x, g, b, mean, rstd, 0, n, d)
}

// layerNormRows is layerNormFwd for rows lo ≤ i < hi.
func layerNormRows[T Float](y, x, g, b, mean, rstd []T, lo, hi, d int) {
	i := lo
	for ; i+lnBlock <= hi; i += lnBlock {
		x0, x1, x2, x3 := x[i*d:(i+1)*d], x[(i+1)*d:(i+2)*d], x[(i+2)*d:(i+3)*d], x[(i+3)*d:(i+4)*d]
		x1, x2, x3 = x1[:len(x0)], x2[:len(x0)], x3[:len(x0)]
		var s0, s1, s2, s3 T
		for j, v := range x0 {
			s0 += v
			s1 += x1[j]
			s2 += x2[j]
			s3 += x3[j]
		}
		m0, m1, m2, m3 := s0/T(d), s1/T(d), s2/T(d), s3/T(d)
		var q0, q1, q2, q3 T
		for j, v := range x0 {
			c0, c1, c2, c3 := v-m0, x1[j]-m1, x2[j]-m2, x3[j]-m3
			q0 += c0 * c0
			q1 += c1 * c1
			q2 += c2 * c2
			q3 += c3 * c3
		}
		layerNormOut(y, x0, g, b, mean, rstd, i, d, m0, q0)
		layerNormOut(y, x1, g, b, mean, rstd, i+1, d, m1, q1)
		layerNormOut(y, x2, g, b, mean, rstd, i+2, d, m2, q2)
		layerNormOut(y, x3, g, b, mean, rstd, i+3, d, m3, q3)
	}
	for ; i < hi; i++ {
		row := x[i*d : (i+1)*d]
		var s T
		for _, v := range row {
			s += v
		}
		mu := s / T(d)
		var q T
		for _, v := range row {
			c := v - mu
			q += c * c
		}
		layerNormOut(y, row, g, b, mean, rstd, i, d, mu, q)
	}
}

// layerNormOut finishes row i (its elements row) from its mean mu and its
// sum of squared deviations q: the stored mean and rstd, and the output.
func layerNormOut[T Float](y, row, g, b, mean, rstd []T, i, d int, mu, q T) {
	r := T(1 / math.Sqrt(float64(q/T(d))+lnEps))
	mean[i], rstd[i] = mu, r
	out := y[i*d : (i+1)*d]
	out, g, b = out[:len(row)], g[:len(row)], b[:len(row)]
	for j, v := range row {
		out[j] = (v-mu)*r*g[j] + b[j]
	}
}

// layerNormBwd writes dx and accumulates dg and db, the gradients of
// layerNormFwd given dy, using the mean and rstd that the forward stored.
// dg and db take the rows' terms in row order, as a one-row loop adds them.
func layerNormBwd[T Float](dx, dg, db, dy, x, g, mean, rstd []T, n, d int) {
	i := 0
	for ; i+lnBlock <= n; i += lnBlock {
		r0, r1, r2, r3 := x[i*d:(i+1)*d], x[(i+1)*d:(i+2)*d], x[(i+2)*d:(i+3)*d], x[(i+3)*d:(i+4)*d]
		d0, d1, d2, d3 := dy[i*d:(i+1)*d], dy[(i+1)*d:(i+2)*d], dy[(i+2)*d:(i+3)*d], dy[(i+3)*d:(i+4)*d]
		r1, r2, r3 = r1[:len(r0)], r2[:len(r0)], r3[:len(r0)]
		d0, d1, d2, d3 = d0[:len(r0)], d1[:len(r0)], d2[:len(r0)], d3[:len(r0)]
		m0, m1, m2, m3 := mean[i], mean[i+1], mean[i+2], mean[i+3]
		q0, q1, q2, q3 := rstd[i], rstd[i+1], rstd[i+2], rstd[i+3]
		gg := g[:len(r0)]
		var a0, a1, a2, a3, b0, b1, b2, b3 T // each row's Σ dxhat (a) and Σ dxhat·xhat (b)
		for j, v := range r0 {
			x0, x1, x2, x3 := (v-m0)*q0, (r1[j]-m1)*q1, (r2[j]-m2)*q2, (r3[j]-m3)*q3
			h0, h1, h2, h3 := d0[j]*gg[j], d1[j]*gg[j], d2[j]*gg[j], d3[j]*gg[j]
			a0 += h0
			a1 += h1
			a2 += h2
			a3 += h3
			b0 += h0 * x0
			b1 += h1 * x1
			b2 += h2 * x2
			b3 += h3 * x3
			if dg != nil {
				dg[j] += d0[j] * x0
				dg[j] += d1[j] * x1
				dg[j] += d2[j] * x2
				dg[j] += d3[j] * x3
			}
			if db != nil {
				db[j] += d0[j]
				db[j] += d1[j]
				db[j] += d2[j]
				db[j] += d3[j]
			}
		}
		if dx != nil {
			layerNormDx(dx, x, dy, g, mean, rstd, i, d, a0, b0)
			layerNormDx(dx, x, dy, g, mean, rstd, i+1, d, a1, b1)
			layerNormDx(dx, x, dy, g, mean, rstd, i+2, d, a2, b2)
			layerNormDx(dx, x, dy, g, mean, rstd, i+3, d, a3, b3)
		}
	}
	for ; i < n; i++ {
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
		if dx != nil {
			layerNormDx(dx, x, dy, g, mean, rstd, i, d, sdx, sdxx)
		}
	}
}

// layerNormDx writes row i of dx from the row's Σ dxhat and Σ dxhat·xhat.
func layerNormDx[T Float](dx, x, dy, g, mean, rstd []T, i, d int, sdx, sdxx T) {
	row, drow := x[i*d:(i+1)*d], dy[i*d:(i+1)*d]
	mu, r := mean[i], rstd[i]
	sdx /= T(d)
	sdxx /= T(d)
	out := dx[i*d : (i+1)*d]
	for j, v := range row {
		xh := (v - mu) * r
		out[j] = r * (drow[j]*g[j] - sdx - xh*sdxx)
	}
}
