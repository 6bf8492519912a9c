package policy

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

var tinyConfig = Config{Vocab: 13, Context: 16, Layers: 2, DModel: 16, Heads: 4}

// randomWeights is a policy (or critic) with larger weights than the
// initialiser's, so that its outputs depend visibly on the input.
func randomWeights(t testing.TB, c Config, critic bool, seed uint64) *Weights {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 99))
	specs := Specs(c)
	if critic {
		specs = CriticSpecs(c)
	}
	w, err := NewWeightsFromSpecs(c, specs, rng)
	require.NoError(t, err)
	for _, p := range w.Params {
		for i := range p.Data {
			p.Data[i] += float32(rng.NormFloat64() * 0.3)
		}
	}
	return w
}

func randomTokens(rng *rand.Rand, n, vocab int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = rng.IntN(vocab)
	}
	return out
}
