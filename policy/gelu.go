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
		for i, v := range x32 {
			x32[i] = exp32(v)
		}
		return
	}
	for i, v := range xs {
		xs[i] = T(math.Exp(float64(v)))
	}
}
