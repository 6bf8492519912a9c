package policy

import (
	"fmt"

	"gorgonia.org/tensor"
)

// The graph kernels of the transformer's layers. Activations are row-major
// matrices of n = batch·length rows.

// embedK: out[i] = tok[ids[i]] + pos_emb[p(i)]; inputs tok (vocab×d),
// pos_emb (context×d). p(i) is pos[i] when pos is set (policy graphs, where
// packed turns reuse positions), else i mod length.
type embedK[T Float] struct {
	n, d, length int
	ids          []int // n token ids, set before each run
	pos          []int // n positions, or nil
}

func (k *embedK[T]) position(i int) int {
	if k.pos != nil {
		return k.pos[i]
	}
	return i % k.length
}

func (k *embedK[T]) String() string         { return fmt.Sprintf("embed(%d,%d)", k.n, k.d) }
func (k *embedK[T]) outShape() tensor.Shape { return tensor.Shape{k.n, k.d} }
func (k *embedK[T]) diffWRT(n int) []bool   { return []bool{true, true} }
func (k *embedK[T]) forward(out []T, in [][]T) {
	tok, pos, d := in[0], in[1], k.d
	for i, id := range k.ids {
		o, t, p := out[i*d:(i+1)*d], tok[id*d:(id+1)*d], pos[k.position(i)*d:]
		for j := range o {
			o[j] = t[j] + p[j]
		}
	}
}
func (k *embedK[T]) backward(dIn [][]T, dOut, _ []T, _ [][]T) {
	dt, dp, d := dIn[0], dIn[1], k.d
	clear(dt)
	clear(dp)
	for i, id := range k.ids {
		g, t, p := dOut[i*d:(i+1)*d], dt[id*d:(id+1)*d], dp[k.position(i)*d:]
		for j, v := range g {
			t[j] += v
			p[j] += v
		}
	}
}

// layerNormK: inputs x (n×d), gain (d), shift (d).
type layerNormK[T Float] struct {
	n, d       int
	mean, rstd []T
}

func newLayerNormK[T Float](n, d int) *layerNormK[T] {
	return &layerNormK[T]{n: n, d: d, mean: make([]T, n), rstd: make([]T, n)}
}
func (k *layerNormK[T]) String() string         { return fmt.Sprintf("layernorm(%d,%d)", k.n, k.d) }
func (k *layerNormK[T]) outShape() tensor.Shape { return tensor.Shape{k.n, k.d} }
func (k *layerNormK[T]) diffWRT(n int) []bool   { return []bool{true, true, true} }
func (k *layerNormK[T]) forward(out []T, in [][]T) {
	layerNormFwd(out, in[0], in[1], in[2], k.mean, k.rstd, k.n, k.d)
}
func (k *layerNormK[T]) backward(dIn [][]T, dOut, _ []T, in [][]T) {
	clear(dIn[1])
	clear(dIn[2])
	layerNormBwd(dIn[0], dIn[1], dIn[2], dOut, in[0], in[1], k.mean, k.rstd, k.n, k.d)
}

// linearK: x (n×in) · w (in×out) + b (out), optionally followed by tanh-GELU.
type linearK[T Float] struct {
	n, in, out int
	gelu       bool
	pre        []T // x·w + b before the GELU (gelu only)
	th         []T // tanh inside the GELU, saved for the backward pass
	dpre       []T
}

func newLinearK[T Float](n, in, out int, gelu bool) *linearK[T] {
	k := &linearK[T]{n: n, in: in, out: out, gelu: gelu}
	if gelu {
		k.pre, k.dpre, k.th = make([]T, n*out), make([]T, n*out), make([]T, n*out)
	}
	return k
}
func (k *linearK[T]) String() string {
	if k.gelu {
		return fmt.Sprintf("gelu(linear(%d,%d,%d))", k.n, k.in, k.out)
	}
	return fmt.Sprintf("linear(%d,%d,%d)", k.n, k.in, k.out)
}
func (k *linearK[T]) outShape() tensor.Shape { return tensor.Shape{k.n, k.out} }
func (k *linearK[T]) diffWRT(n int) []bool   { return []bool{true, true, true} }
func (k *linearK[T]) forward(out []T, in [][]T) {
	if !k.gelu {
		linearFwd(out, in[0], in[1], in[2], k.n, k.in, k.out)
		return
	}
	linearFwd(k.pre, in[0], in[1], in[2], k.n, k.in, k.out)
	geluFwd(out, k.pre, k.th)
}
func (k *linearK[T]) backward(dIn [][]T, dOut, _ []T, in [][]T) {
	dy := dOut
	if k.gelu {
		geluBwd(k.dpre, dOut, k.pre, k.th)
		dy = k.dpre
	}
	linearBwd(dIn[0], dIn[1], dIn[2], dy, in[0], in[1], k.n, k.in, k.out)
}

// geluK is tanh-GELU on its own (the model fuses it into linearK; this one
// exists so the activation has its own gradient check).
type geluK[T Float] struct{ shape tensor.Shape }

func (k *geluK[T]) String() string                            { return fmt.Sprintf("gelu%v", k.shape) }
func (k *geluK[T]) outShape() tensor.Shape                    { return k.shape }
func (k *geluK[T]) diffWRT(n int) []bool                      { return []bool{true} }
func (k *geluK[T]) forward(out []T, in [][]T)                 { geluFwd(out, in[0], nil) }
func (k *geluK[T]) backward(dIn [][]T, dOut, _ []T, in [][]T) { geluBwd(dIn[0], dOut, in[0], nil) }

// addK is the residual connection a + b.
type addK[T Float] struct{ shape tensor.Shape }

func (k *addK[T]) String() string         { return fmt.Sprintf("add%v", k.shape) }
func (k *addK[T]) outShape() tensor.Shape { return k.shape }
func (k *addK[T]) diffWRT(n int) []bool   { return []bool{true, true} }
func (k *addK[T]) forward(out []T, in [][]T) {
	a, b := in[0], in[1]
	for i := range out {
		out[i] = a[i] + b[i]
	}
}
func (k *addK[T]) backward(dIn [][]T, dOut, _ []T, _ [][]T) {
	copy(dIn[0], dOut)
	copy(dIn[1], dOut)
}
