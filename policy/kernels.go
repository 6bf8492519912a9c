package policy

import (
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// Float is the element type of the model's kernels: float32 for training and
// sampling, float64 for the finite-difference gradient checks.
type Float interface{ float32 | float64 }

// lnEps is the layer-norm epsilon (PyTorch's default).
const lnEps = 1e-5

var blasImpl gonum.Implementation

func trans(t bool) blas.Transpose {
	if t {
		return blas.Trans
	}
	return blas.NoTrans
}

// gemm computes c = alpha·op(a)·op(b) + beta·c for row-major matrices
// (op(a) is m×k, op(b) is k×n, c is m×n) with leading dimensions lda, ldb, ldc.
func gemm[T Float](tA, tB bool, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) {
	switch av := any(a).(type) {
	case []float32:
		gemm32(trans(tA), trans(tB), m, n, k, float32(alpha), av, lda, any(b).([]float32), ldb, float32(beta), any(c).([]float32), ldc)
	case []float64:
		blasImpl.Dgemm(trans(tA), trans(tB), m, n, k, float64(alpha), av, lda, any(b).([]float64), ldb, float64(beta), any(c).([]float64), ldc)
	}
}

// linearFwd computes y = x·w + b for x (n×in), w (in×out), b (out), y (n×out).
func linearFwd[T Float](y, x, w, b []T, n, in, out int) {
	for i := 0; i < n; i++ {
		copy(y[i*out:(i+1)*out], b)
	}
	gemm(false, false, n, out, in, 1, x, in, w, out, 1, y, out)
}

// linearBwd accumulates dx += dy·wᵀ, dw += xᵀ·dy and db += colsum(dy); a nil
// destination is skipped.
func linearBwd[T Float](dx, dw, db, dy, x, w []T, n, in, out int) {
	if dx != nil {
		gemm(false, true, n, in, out, 1, dy, out, w, out, 1, dx, in)
	}
	if dw != nil {
		gemm(true, false, in, out, n, 1, x, in, dy, out, 1, dw, out)
	}
	if db != nil {
		for i := 0; i < n; i++ {
			row := dy[i*out : (i+1)*out]
			for j, v := range row {
				db[j] += v
			}
		}
	}
}

// layerNormFwd normalises each of the n rows of x (width d) and applies gain g
// and shift b; it stores each row's mean and reciprocal std in mean and rstd.
func layerNormFwd[T Float](y, x, g, b, mean, rstd []T, n, d int) {
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
		out := y[i*d : (i+1)*d]
		for j, v := range row {
			out[j] = (v-mu)*r*g[j] + b[j]
		}
	}
}

// layerNormBwd accumulates the gradients of layerNormFwd given dy, using the
// mean and rstd that the forward stored.
func layerNormBwd[T Float](dx, dg, db, dy, x, g, mean, rstd []T, n, d int) {
	for i := 0; i < n; i++ {
		row, drow := x[i*d:(i+1)*d], dy[i*d:(i+1)*d]
		mu, r := mean[i], rstd[i]
		var sdx, sdxx T // Σ dxhat, Σ dxhat·xhat
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
		out := dx[i*d : (i+1)*d]
		for j, v := range row {
			xh := (v - mu) * r
			out[j] += r * (drow[j]*g[j] - sdx - xh*sdxx)
		}
	}
}

const geluC = 0.7978845608028654 // sqrt(2/π)

// geluFwd is the tanh approximation of GELU: 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))).
func geluFwd[T Float](y, x []T) {
	for i, v := range x {
		t := tanh(T(geluC) * (v + 0.044715*v*v*v))
		y[i] = 0.5 * v * (1 + t)
	}
}

// geluBwd accumulates dx += dy·gelu'(x).
func geluBwd[T Float](dx, dy, x []T) {
	for i, v := range x {
		t := tanh(T(geluC) * (v + 0.044715*v*v*v))
		d := 0.5*(1+t) + 0.5*v*(1-t*t)*T(geluC)*(1+3*0.044715*v*v)
		dx[i] += dy[i] * d
	}
}

func tanh[T Float](x T) T {
	if f, ok := any(x).(float32); ok {
		return T(tanh32(f))
	}
	return T(math.Tanh(float64(x)))
}

// geluFwdSave is geluFwd that also stores each tanh for geluBwdSaved.
func geluFwdSave[T Float](y, x, th []T) {
	for i, v := range x {
		t := tanh(T(geluC) * (v + 0.044715*v*v*v))
		th[i] = t
		y[i] = 0.5 * v * (1 + t)
	}
}

// geluBwdSaved is geluBwd with the tanh values saved by geluFwdSave.
func geluBwdSaved[T Float](dx, dy, x, th []T) {
	for i, v := range x {
		t := th[i]
		d := 0.5*(1+t) + 0.5*v*(1-t*t)*T(geluC)*(1+3*0.044715*v*v)
		dx[i] += dy[i] * d
	}
}

// tanh32 is tanh in float32 precision through exp32.
func tanh32(x float32) float32 {
	if x > 9 {
		return 1
	}
	if x < -9 {
		return -1
	}
	e := exp32(2 * x)
	return (e - 1) / (e + 1)
}

// exp32 is e^x in float32 (relative error about 2e-7): x·log2(e) = n + f
// with |f| ≤ 1/2, 2^f by its degree-7 Taylor polynomial, times 2^n.
func exp32(x float32) float32 {
	switch {
	case x < -87:
		return 0
	case x > 88:
		return float32(math.Inf(1))
	case x != x:
		return x
	}
	t := float64(x)*1.4426950408889634 + 0.5 // range reduction in float64: exact enough for |x| ≤ 88
	n := int32(t)
	if float64(n) > t {
		n--
	}
	f := float32((t - 0.5 - float64(n)) * 0.6931471805599453) // f·ln 2, in [−0.35, 0.35]
	p := 1 + f*(1+f*(1.0/2+f*(1.0/6+f*(1.0/24+f*(1.0/120+f*(1.0/720+f*(1.0/5040)))))))
	return p * math.Float32frombits(uint32(n+127)<<23)
}

func exp[T Float](x T) T {
	if f, ok := any(x).(float32); ok {
		return T(exp32(f))
	}
	return T(math.Exp(float64(x)))
}

// logSoftmaxRow writes log softmax(z) into lp and returns the entropy
// −Σ p·log p of the distribution.
func logSoftmaxRow[T Float](lp, z []T) T {
	mx := z[0]
	for _, v := range z[1:] {
		if v > mx {
			mx = v
		}
	}
	var s float64
	for _, v := range z {
		s += math.Exp(float64(v - mx))
	}
	lse := mx + T(math.Log(s))
	var h T
	for j, v := range z {
		l := v - lse
		lp[j] = l
		h -= exp(l) * l
	}
	return h
}
