package policy

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// float64Params copies w's parameters to float64.
func float64Params(w *Weights) [][]float64 {
	var out [][]float64
	for _, p := range w.Params {
		x := make([]float64, len(p.Data))
		for i, v := range p.Data {
			x[i] = float64(v)
		}
		out = append(out, x)
	}
	return out
}

// checkGraphGrad compares every parameter gradient of a float64 graph with
// central finite differences of its loss.
func checkGraphGrad(t *testing.T, gr *graph[float64], params [][]float64, names []string) {
	t.Helper()
	require.NoError(t, gr.run(params, true))
	require.NoError(t, gr.run(params, true)) // twice: stale gradients would add up
	var analytic [][]float64
	for i := range params {
		analytic = append(analytic, append([]float64(nil), gr.grad(i)...))
	}
	nonzero := 0
	rng := rand.New(rand.NewPCG(77, 77))
	for i, x := range params {
		// every element of small tensors, 24 random ones of large ones
		idx := rng.Perm(len(x))
		if len(idx) > 24 {
			idx = idx[:24]
		}
		for _, j := range idx {
			const h = 1e-6
			old := x[j]
			x[j] = old + h
			require.NoError(t, gr.run(params, false))
			fp := gr.costValue()
			x[j] = old - h
			require.NoError(t, gr.run(params, false))
			fm := gr.costValue()
			x[j] = old
			num := (fp - fm) / (2 * h)
			a := analytic[i][j]
			require.InDeltaf(t, num, a, 1e-7+2e-5*math.Abs(num), "%s[%d]: finite difference %g, analytic %g", names[i], j, num, a)
			if math.Abs(a) > 1e-6 {
				nonzero++
			}
		}
	}
	require.Greater(t, nonzero, 50, "too few non-zero gradients for a meaningful check")
}

var gradConfig = Config{Vocab: 7, Context: 8, Layers: 2, DModel: 8, Heads: 2}

func paramNames(w *Weights) []string {
	var n []string
	for _, p := range w.Params {
		n = append(n, p.Name)
	}
	return n
}

// The whole policy graph (embedding, layer norms, attention, GELU MLP,
// output projection, loss head) against finite differences, for objectives
// with and without an entropy term and at temperatures 1 and 0.7, untied and with tied embeddings (where tok_emb's gradient sums the
// embedding's and the output projection's); the batch is padded (3
// sequences in a bucket of 4).
func TestGradPolicyGraph(t *testing.T) {
	for _, tied := range []bool{false, true} {
		cfg := gradConfig
		cfg.TieEmbeddings = tied
		for _, obj := range []testObjective{
			{w: 0.2},
			{w: 0.1, square: 0.3, entropy: 0.4},
			{w: 0.3, square: -0.2, entropy: 0.3, temp: 0.7},
		} {
			w := randomWeights(t, cfg, false, 21)
			params := float64Params(w)
			gr, err := newGraph(w, params, 4, 8, false)
			require.NoError(t, err)
			rng := rand.New(rand.NewPCG(5, 5))
			var batch []Sequence
			for _, n := range [][2]int{{2, 5}, {4, 3}, {1, 7}} {
				s := Sequence{Prompt: randomTokens(rng, n[0], cfg.Vocab), Response: randomTokens(rng, n[1], cfg.Vocab)}
				for range n[1] {
					s.Advantages = append(s.Advantages, float32(rng.NormFloat64()))
					// log-probs near the model's (≈ −log 7 ≈ −1.95) so some ratios fall inside the clip range, some outside
					s.OldLogProbs = append(s.OldLogProbs, float32(-2+0.4*rng.NormFloat64()))
					s.RefLogProbs = append(s.RefLogProbs, float32(-2+0.4*rng.NormFloat64()))
				}
				batch = append(batch, s)
			}
			fillPolicy(gr, batch, obj.temperature(), obj)
			checkGraphGrad(t, gr, params, paramNames(w))
		}
	}
}

// The critic graph with the (clipped) value loss against finite differences.
func TestGradCriticGraph(t *testing.T) {
	for _, clip := range []float64{0, 0.05} {
		w := randomWeights(t, gradConfig, true, 22)
		params := float64Params(w)
		gr, err := newGraph(w, params, 4, 8, true)
		require.NoError(t, err)
		k := gr.vloss
		k.clip = clip
		k.rows = []int{2, 8 + 7, 16 + 0}
		k.returns = []float64{0.5, -1, 2}
		k.old = []float64{0.3, -0.9, 0.1}
		rng := rand.New(rand.NewPCG(6, 6))
		for i := range gr.embed.ids {
			gr.embed.ids[i] = rng.IntN(gradConfig.Vocab)
		}
		checkGraphGrad(t, gr, params, paramNames(w))
	}
}
