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

// testObjective is the loss the trainer's tests minimise: per token
// w·(−A·logp + square·logp² − entropy·H), nonlinear in logp so that
// gradient checks see ∂loss/∂logp vary; temp is the temperature a test
// trains at (0 means 1).
type testObjective struct {
	w, square, entropy, temp float64
}

func (o testObjective) Token(t Token) TokenLoss {
	return TokenLoss{
		Weight:   o.w,
		Loss:     -t.Advantage*t.LogProb + o.square*t.LogProb*t.LogProb - o.entropy*t.Entropy,
		DLogProb: -t.Advantage + 2*o.square*t.LogProb,
		DEntropy: -o.entropy,
	}
}

func (o testObjective) temperature() float64 {
	if o.temp == 0 {
		return 1
	}
	return o.temp
}

// meanObjective is testObjective with w = 1 / (response tokens of batch).
func meanObjective(batch []Sequence, o testObjective) testObjective {
	n := 0
	for i := range batch {
		n += batch[i].responseTokens()
	}
	o.w = 1 / float64(n)
	return o
}
