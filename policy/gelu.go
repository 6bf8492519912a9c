package policy

import "math"

// Element-wise activations. The float32 paths (training and sampling) run
// specialised loops, split over the cores for large inputs; the float64
// paths serve the gradient checks.

const geluC = 0.7978845608028654 // sqrt(2/π)

// parallelChunks runs f over 0..n, split across the cores when n is large.
func parallelChunks(n int, f func(lo, hi int)) {
	if n < 1<<13 {
		f(0, n)
		return
	}
	parallelFor(n, func(lo, hi, _ int) { f(lo, hi) })
}

func part[T any](x []T, lo, hi int) []T {
	if x == nil {
		return nil
	}
	return x[lo:hi]
}

// geluFwd is the tanh approximation of GELU, y = 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))).
// When th is not nil it receives each tanh for geluBwd.
func geluFwd[T Float](y, x, th []T) {
	if y32, ok := any(y).([]float32); ok {
		x32, th32 := any(x).([]float32), any(th).([]float32)
		parallelChunks(len(x32), func(lo, hi int) { gelu32(y32[lo:hi], x32[lo:hi], part(th32, lo, hi)) })
		return
	}
	for i, v := range x {
		t := T(math.Tanh(float64(T(geluC) * (v + 0.044715*v*v*v))))
		if th != nil {
			th[i] = t
		}
		y[i] = 0.5 * v * (1 + t)
	}
}

func gelu32(y, x, th []float32) {
	if n := len(x) &^ 7; haveKernel && n > 0 {
		var thp *float32
		if th != nil {
			thp = &th[0]
		}
		geluVec(&y[0], &x[0], thp, &vecConsts[0], n)
		y, x = y[n:], x[n:]
		if th != nil {
			th = th[n:]
		}
	}
	for i, v := range x {
		t := tanh32(geluC * (v + 0.044715*v*v*v))
		if th != nil {
			th[i] = t
		}
		y[i] = 0.5 * v * (1 + t)
	}
}

// geluBwd writes dx = dy·gelu'(x); th holds the forward's tanh values
// or is nil (then they are recomputed).
func geluBwd[T Float](dx, dy, x, th []T) {
	if dx32, ok := any(dx).([]float32); ok {
		dy32, x32, th32 := any(dy).([]float32), any(x).([]float32), any(th).([]float32)
		parallelChunks(len(x32), func(lo, hi int) { geluBwd32(dx32[lo:hi], dy32[lo:hi], x32[lo:hi], part(th32, lo, hi)) })
		return
	}
	for i, v := range x {
		var t T
		if th != nil {
			t = th[i]
		} else {
			t = T(math.Tanh(float64(T(geluC) * (v + 0.044715*v*v*v))))
		}
		dx[i] = dy[i] * (0.5*(1+t) + 0.5*v*(1-t*t)*T(geluC)*(1+3*0.044715*v*v))
	}
}

func geluBwd32(dx, dy, x, th []float32) {
	if n := len(x) &^ 7; haveKernel && n > 0 && th != nil {
		geluBwdVec(&dx[0], &dy[0], &x[0], &th[0], &vecConsts[0], n)
		dx, dy, x, th = dx[n:], dy[n:], x[n:], th[n:]
	}
	for i, v := range x {
		var t float32
		if th != nil {
			t = th[i]
		} else {
			t = tanh32(geluC * (v + 0.044715*v*v*v))
		}
		dx[i] = dy[i] * (0.5*(1+t) + 0.5*v*(1-t*t)*geluC*(1+3*0.044715*v*v))
	}
}

// expSlice replaces each x by e^x.
func expSlice[T Float](xs []T) {
	if x32, ok := any(xs).([]float32); ok {
		if n := len(x32) &^ 7; haveKernel && n > 0 {
			expVec(&x32[0], &vecConsts[0], n)
			x32 = x32[n:]
		}
		for i, v := range x32 {
			x32[i] = exp32(v)
		}
		return
	}
	for i, v := range xs {
		xs[i] = T(math.Exp(float64(v)))
	}
}

// vecConsts holds the constants of geluVec, geluBwdVec and expVec, each
// repeated over a 32-byte vector (float64 ones as four lanes), in the
// order gelu_amd64.s indexes them. They are the scalar code's constants
// converted as Go converts them, so the vector results match bit for bit.
var vecConsts = func() (c [31 * 8]float32) {
	f32 := func(i int, v float32) {
		for j := 0; j < 8; j++ {
			c[i*8+j] = v
		}
	}
	f64 := func(i int, v float64) {
		b := math.Float64bits(v)
		for j := 0; j < 4; j++ {
			c[i*8+2*j] = math.Float32frombits(uint32(b))
			c[i*8+2*j+1] = math.Float32frombits(uint32(b >> 32))
		}
	}
	for i, v := range []float32{geluC, 0.044715, -tanhClamp, tanhClamp,
		tanhP6, tanhP5, tanhP4, tanhP3, tanhP2, tanhP1, tanhP0,
		tanhQ3, tanhQ2, tanhQ1, tanhQ0,
		0.5, 1, 3 * 0.044715} {
		f32(i, v)
	}
	f64(18, expLog2E)
	f64(19, 0.5)
	f64(20, expLn2)
	f32(21, math.Float32frombits(127))
	for i, v := range []float32{1.0 / 2, 1.0 / 6, 1.0 / 24, 1.0 / 120, 1.0 / 720, 1.0 / 5040, expMin, expMax} {
		f32(22+i, v)
	}
	f32(30, float32(math.Inf(1)))
	return c
}()
