package policy

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// dotK reduces its input to the scalar Σ r_i·x_i with fixed random r, so that
// a kernel with a tensor output can be checked through one scalar.
type dotK struct {
	r []float64
}

func (k *dotK) String() string         { return "dot" }
func (k *dotK) outShape() tensor.Shape { return tensor.Shape{} }
func (k *dotK) diffWRT(n int) []bool   { return []bool{true} }
func (k *dotK) forward(out []float64, in [][]float64) {
	var s float64
	for i, x := range in[0] {
		s += k.r[i] * x
	}
	out[0] = s
}
func (k *dotK) backward(dIn [][]float64, dOut, _ []float64, _ [][]float64) {
	for i := range dIn[0] {
		dIn[0][i] = dOut[0] * k.r[i]
	}
}

// checkKernel builds input nodes of the given shapes and data, applies k and
// (when k's output is not a scalar) dotK, and compares Gorgonia's gradient of
// every differentiable input with central finite differences in float64.
func checkKernel(t *testing.T, k kernel[float64], shapes []tensor.Shape, data [][]float64, rng *rand.Rand) {
	t.Helper()
	g := G.NewGraph()
	var nodes []*G.Node
	for i, s := range shapes {
		val := tensor.New(tensor.WithShape(s.Clone()...), tensor.WithBacking(data[i]))
		nodes = append(nodes, G.NewTensor(g, tensor.Float64, len(s), G.WithShape(s.Clone()...), G.WithName(string(rune('a'+i))), G.WithValue(val)))
	}
	out, err := apply[float64](k, nodes...)
	require.NoError(t, err)
	cost := out
	if len(k.outShape()) > 0 {
		r := make([]float64, k.outShape().TotalSize())
		for i := range r {
			r[i] = rng.NormFloat64()
		}
		cost, err = apply[float64](&dotK{r: r}, out)
		require.NoError(t, err)
	}
	diff := k.diffWRT(len(nodes))
	var wrt G.Nodes
	for i, d := range diff {
		if d {
			wrt = append(wrt, nodes[i])
		}
	}
	grads, err := G.Grad(cost, wrt...)
	require.NoError(t, err)
	vm := G.NewTapeMachine(g)
	defer vm.Close()
	eval := func() float64 {
		vm.Reset()
		require.NoError(t, vm.RunAll())
		d, err := dataOf[float64](cost.Value())
		require.NoError(t, err)
		return d[0]
	}
	eval()
	eval() // twice: a kernel that accumulates into last run's gradients fails
	var analytic [][]float64
	for _, gn := range grads {
		analytic = append(analytic, append([]float64(nil), gn.Value().Data().([]float64)...))
	}
	gi := 0
	for i, d := range diff {
		if !d {
			continue
		}
		x := data[i]
		for j := range x {
			const h = 1e-6
			old := x[j]
			x[j] = old + h
			fp := eval()
			x[j] = old - h
			fm := eval()
			x[j] = old
			num := (fp - fm) / (2 * h)
			a := analytic[gi][j]
			require.InDeltaf(t, num, a, 1e-6+1e-5*math.Abs(num), "%s: input %d element %d: finite difference %g, analytic %g", k, i, j, num, a)
		}
		gi++
	}
}

func randData(rng *rand.Rand, n int, scale float64) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = rng.NormFloat64() * scale
	}
	return x
}

func TestGradLayerNorm(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	n, d := 5, 7
	checkKernel(t, newLayerNormK[float64](n, d), []tensor.Shape{{n, d}, {d}, {d}},
		[][]float64{randData(rng, n*d, 2), randData(rng, d, 1), randData(rng, d, 1)}, rng)
}

func TestGradLinear(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	n, in, out := 6, 5, 4
	for _, gelu := range []bool{false, true} {
		checkKernel(t, newLinearK[float64](n, in, out, gelu), []tensor.Shape{{n, in}, {in, out}, {out}},
			[][]float64{randData(rng, n*in, 1), randData(rng, in*out, 1), randData(rng, out, 1)}, rng)
	}
}

func TestGradGELU(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	checkKernel(t, &geluK[float64]{tensor.Shape{4, 6}}, []tensor.Shape{{4, 6}}, [][]float64{randData(rng, 24, 2)}, rng)
}

func TestGradAdd(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	checkKernel(t, &addK[float64]{tensor.Shape{3, 4}}, []tensor.Shape{{3, 4}, {3, 4}},
		[][]float64{randData(rng, 12, 1), randData(rng, 12, 1)}, rng)
}

func TestGradEmbedding(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	b, length, vocab, ctx, d := 2, 3, 5, 4, 3
	k := &embedK[float64]{n: b * length, d: d, length: length, ids: []int{4, 1, 1, 0, 4, 2}}
	checkKernel(t, k, []tensor.Shape{{vocab, d}, {ctx, d}},
		[][]float64{randData(rng, vocab*d, 1), randData(rng, ctx*d, 1)}, rng)
}

func TestGradAttention(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	b, length, d, heads := 2, 5, 6, 2
	n := b * length
	checkKernel(t, newAttentionK[float64](b, length, d, heads, nil), []tensor.Shape{{n, d}, {n, d}, {n, d}},
		[][]float64{randData(rng, n*d, 1), randData(rng, n*d, 1), randData(rng, n*d, 1)}, rng)
}

// The mask of packed turns: rows of a branch hide keys between the shared
// prefix and their own rows, and those keys get no gradient from them.
func TestGradAttentionMasked(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	b, length, d, heads := 2, 7, 4, 2
	n := b * length
	m := &rowMask{lo: make([]int, n), hi: make([]int, n)}
	// sequence 0: rows 5-6 see keys 0-1 and 5.. (a branch after a 2-token prefix);
	// sequence 1: row 6 sees 0-2 and 6.
	for _, r := range []int{5, 6} {
		m.lo[r], m.hi[r] = 2, 5
	}
	m.lo[length+6], m.hi[length+6] = 3, 6
	k := newAttentionK[float64](b, length, d, heads, m)
	checkKernel(t, k, []tensor.Shape{{n, d}, {n, d}, {n, d}},
		[][]float64{randData(rng, n*d, 1), randData(rng, n*d, 1), randData(rng, n*d, 1)}, rng)
	// The hidden probabilities are exact zeros and each row sums to 1.
	for h := 0; h < heads; h++ {
		row := k.p[(0*heads+h)*length*length+6*length:][:length]
		require.Equal(t, []float64{0, 0, 0}, row[2:5])
		require.InDelta(t, 1, row[0]+row[1]+row[5]+row[6], 1e-12)
	}
}

// The head, untied (w is in×out) and tied (w is tok_emb, out×in, read
// transposed), against finite differences, with some, all or no rows read.
func TestGradHead(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	n, in, out := 7, 5, 6
	for _, tied := range []bool{false, true} {
		for _, target := range [][]int{
			{-1, 2, 0, -1, -1, 5, 1}, // some rows read
			{1, 1, 1, 1, 1, 1, 1},    // every row
			{-1, -1, -1, -1, -1, -1, -1},
		} {
			k := newHeadK[float64](n, in, out, tied, target)
			x, w, b := randData(rng, n*in, 1), randData(rng, in*out, 1), randData(rng, out, 1)
			wShape, wt := tensor.Shape{in, out}, w // wt: w as in×out
			if tied {
				wShape, wt = tensor.Shape{out, in}, make([]float64, in*out)
				for i := 0; i < out; i++ {
					for j := 0; j < in; j++ {
						wt[j*out+i] = w[i*in+j]
					}
				}
			}
			checkKernel(t, k, []tensor.Shape{{n, in}, wShape, {out}}, [][]float64{x, w, b}, rng)

			// The rows read are the full projection's; the others are zero.
			y := make([]float64, n*out)
			k.forward(y, [][]float64{x, w, b})
			full := make([]float64, n*out)
			linearFwd(full, x, wt, b, n, in, out)
			for i, tg := range target {
				for j := 0; j < out; j++ {
					want := 0.0
					if tg >= 0 {
						want = full[i*out+j]
					}
					require.InDelta(t, want, y[i*out+j], 1e-12, "tied %v row %d column %d", tied, i, j)
				}
			}
		}
	}
}
