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
	gemmBias(false, n, out, in, x, w, out, b, y)
}

// linearBwd writes dx = dy·wᵀ, dw = xᵀ·dy and db = colsum(dy); a nil
// destination is skipped.
func linearBwd[T Float](dx, dw, db, dy, x, w []T, n, in, out int) {
	if dx != nil {
		gemm(false, true, n, in, out, 1, dy, out, w, out, 0, dx, in)
	}
	if dw != nil {
		gemm(true, false, in, out, n, 1, x, in, dy, out, 0, dw, out)
	}
	if db != nil {
		clear(db)
		for i := 0; i < n; i++ {
			row := dy[i*out : (i+1)*out]
			for j, v := range row {
				db[j] += v
			}
		}
	}
}

// linearFwdT computes y = x·wᵀ + b for x (n×in), w (out×in), b (out), y
// (n×out): the output projection of a model with tied embeddings, whose w
// is tok_emb (vocab×d).
func linearFwdT[T Float](y, x, w, b []T, n, in, out int) {
	gemmBias(true, n, out, in, x, w, in, b, y)
}

// gemmBias computes y = x·op(w) + b for x (n×in), op(w) (in×out, w's row
// stride ldw) and b (out) added to every row of y (n×out): with gemgo's
// own float32 kernels in one pass (sgemmBias), otherwise by filling y's
// rows with b and adding the product; both give the same bits.
func gemmBias[T Float](tW bool, n, out, in int, x, w []T, ldw int, b, y []T) {
	if y32, ok := any(y).([]float32); ok && ownKernels() {
		sgemmBias(false, tW, n, out, in, any(x).([]float32), in, any(w).([]float32), ldw, any(b).([]float32), y32, out)
		return
	}
	for i := 0; i < n; i++ {
		copy(y[i*out:(i+1)*out], b)
	}
	gemm(false, tW, n, out, in, 1, x, in, w, ldw, 1, y, out)
}

// linearBwdT writes dx = dy·w, dw = dyᵀ·x and db = colsum(dy), the
// gradients of linearFwdT.
func linearBwdT[T Float](dx, dw, db, dy, x, w []T, n, in, out int) {
	gemm(false, false, n, in, out, 1, dy, out, w, in, 0, dx, in)
	gemm(true, false, out, in, n, 1, dy, out, x, in, 0, dw, in)
	linearBwd(nil, nil, db, dy, nil, nil, n, in, out)
}

// tanh32 is tanh in float32 by a 13/6 odd rational approximation on
// |x| ≤ 7.9053 (clamped beyond, where tanh rounds to ±1): absolute and
// relative error below 4e-7 (checked in TestTanh32), no exp or division
// by a small number.
func tanh32(x float32) float32 {
	x = min(max(x, -tanhClamp), tanhClamp)
	x2 := x * x
	p := x2*tanhP6 + tanhP5
	p = x2*p + tanhP4
	p = x2*p + tanhP3
	p = x2*p + tanhP2
	p = x2*p + tanhP1
	p = x2*p + tanhP0
	p = x * p
	q := x2*tanhQ3 + tanhQ2
	q = x2*q + tanhQ1
	q = x2*q + tanhQ0
	return p / q
}

// The coefficients of tanh32 (numerator x·P(x²), denominator Q(x²)) and
// the clamp, shared with its vector form.
const (
	tanhClamp = 7.90531110763549805
	tanhP6    = -2.76076847742355e-16
	tanhP5    = 2.00018790482477e-13
	tanhP4    = -8.60467152213735e-11
	tanhP3    = 5.12229709037114e-08
	tanhP2    = 1.48572235717979e-05
	tanhP1    = 6.37261928875436e-04
	tanhP0    = 4.89352455891786e-03
	tanhQ3    = 1.19825839466702e-06
	tanhQ2    = 1.18534705686654e-04
	tanhQ1    = 2.26843463243900e-03
	tanhQ0    = 4.89352518554385e-03
)

// exp32 is e^x in float32 (relative error about 2e-7): x·log2(e) = n + f
// with |f| ≤ 1/2, 2^f by its degree-7 Taylor polynomial, times 2^n.
func exp32(x float32) float32 {
	switch {
	case x < expMin:
		return 0
	case x > expMax:
		return float32(math.Inf(1))
	case x != x:
		return x
	}
	t := float64(x)*expLog2E + 0.5 // range reduction in float64: exact enough for |x| ≤ 88
	n := int32(t)
	if float64(n) > t {
		n--
	}
	f := float32((t - 0.5 - float64(n)) * expLn2) // f·ln 2, in [−0.35, 0.35]
	p := 1 + f*(1+f*(1.0/2+f*(1.0/6+f*(1.0/24+f*(1.0/120+f*(1.0/720+f*(1.0/5040)))))))
	return p * math.Float32frombits(uint32(n+127)<<23)
}

// The range of exp32 (0 below, +Inf above) and its reduction constants,
// shared with its vector form.
const (
	expMin   = -87
	expMax   = 88
	expLog2E = 1.4426950408889634
	expLn2   = 0.6931471805599453
)

// expShifted replaces each score s by e^(s−mx) and returns their sum
// (accumulated in order, so the vector exp changes no value). The
// training graph's attention (causalSoftmax) and the sampler's share it.
func expShifted[T Float](sc []T, mx T) T {
	for j := range sc {
		sc[j] -= mx
	}
	expSlice(sc)
	var sum T
	for _, e := range sc {
		sum += e
	}
	return sum
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
	// lp holds e^(z−max) until the second pass: the entropy's p = e/s
	// reuses the exponentials of the sum (half the exps of computing
	// e^(z−lse) again). The exps are expSlice's: the vector exp32 in
	// float32, math.Exp in float64 (the gradient checks).
	for j, v := range z {
		lp[j] = v - mx
	}
	expSlice(lp)
	var s float64
	for _, e := range lp {
		s += float64(e)
	}
	lse, inv := mx+T(math.Log(s)), T(1/s)
	var h T
	for j, v := range z {
		l := v - lse
		h -= lp[j] * inv * l
		lp[j] = l
	}
	return h
}
