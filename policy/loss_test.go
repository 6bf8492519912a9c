package policy

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gorgonia.org/tensor"
)

// The loss head's per-token inputs, hand-computed: vocab 2 with equal
// logits gives logp = −ln 2 and H = ln 2 for either target; at temperature
// 2 the logits (1, 0) are (0.5, 0), so target 1 has logp = −log(1 + e^0.5)
// and target 0 has logp = 0.5 − log(1 + e^0.5).
func TestLossHeadTokens(t *testing.T) {
	ln2 := math.Ln2
	rec := &recordObjective{}
	toks := []Token{{Advantage: 2, OldLogProb: -1, RefLogProb: math.NaN(), TurnLen: 3}, {Advantage: 1, TurnLen: 1}, {}}
	loss, _, err := LossHead([]float64{0.7, 0.7, 3, 4, 9, 9}, []int{1, 0, -1}, toks, 0, rec)
	require.NoError(t, err)
	require.Len(t, rec.seen, 2, "the padding row is not a token")
	assert.InDelta(t, -ln2, rec.seen[0].LogProb, 1e-12)
	assert.InDelta(t, ln2, rec.seen[0].Entropy, 1e-12)
	assert.Equal(t, 2.0, rec.seen[0].Advantage, "the token's data reach the objective")
	assert.Equal(t, -1.0, rec.seen[0].OldLogProb)
	assert.Equal(t, 3, rec.seen[0].TurnLen)
	assert.InDelta(t, 3-math.Log(math.Exp(3)+math.Exp(4)), rec.seen[1].LogProb, 1e-12)
	// the loss is Σ Weight·Loss with the recorder's Weight 0.5 and Loss −logp
	assert.InDelta(t, 0.5*(ln2-rec.seen[1].LogProb), loss, 1e-12)

	rec = &recordObjective{}
	_, _, err = LossHead([]float64{1, 0, 1, 0}, []int{1, 0}, make([]Token, 2), 2, rec)
	require.NoError(t, err)
	assert.InDelta(t, -math.Log(1+math.Exp(0.5)), rec.seen[0].LogProb, 1e-12)
	assert.InDelta(t, 0.5-math.Log(1+math.Exp(0.5)), rec.seen[1].LogProb, 1e-12)

	for _, bad := range []struct {
		logits  []float64
		targets []int
		temp    float64
		obj     Objective
		want    string
	}{
		{[]float64{1, 2, 3}, []int{0, 1}, 1, rec, "do not make rows"},
		{[]float64{1, 2}, []int{2}, 1, rec, "outside"},
		{[]float64{1, 2}, []int{0}, -1, rec, "temperature -1"},
		{[]float64{1, 2}, []int{0}, 1, nil, "no objective"},
	} {
		_, _, err := LossHead(bad.logits, bad.targets, make([]Token, len(bad.targets)), bad.temp, bad.obj)
		assert.ErrorContains(t, err, bad.want)
	}
}

// recordObjective remembers the tokens it was asked about; its loss is
// 0.5·(−logp) per token.
type recordObjective struct{ seen []Token }

func (r *recordObjective) Token(t Token) TokenLoss {
	r.seen = append(r.seen, t)
	return TokenLoss{Weight: 0.5, Loss: -t.LogProb, DLogProb: -1}
}

// The loss head on its own (log-softmax gather, entropy, and the chain
// rule from ∂loss/∂logp and ∂loss/∂H into the logits) against finite
// differences, with padding rows, at temperatures 1, 0.6 and 1.7.
func TestGradLossHead(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	n, V := 6, 5
	for _, obj := range []testObjective{
		{w: 0.3, square: 0.4},
		{w: 0.7, entropy: 0.9, temp: 0.6},
		{w: 1.1, entropy: 0.2, square: -0.3, temp: 1.7},
	} {
		k := newPolicyLossK[float64](n, V)
		k.obj, k.temp = obj, obj.temperature()
		for i := range n {
			k.target[i] = rng.IntN(V)
			k.tok[i] = Token{Advantage: rng.NormFloat64(), TurnLen: 1}
		}
		k.target[2], k.target[5] = -1, -1 // padding
		checkKernel(t, k, []tensor.Shape{{n, V}}, [][]float64{randData(rng, n*V, 1)}, rng)
	}
}

func TestValueLossValuesAndGrad(t *testing.T) {
	k := &valueLossK[float64]{n: 4, rows: []int{0, 2, 3}, returns: []float64{1, 0, -1}, old: []float64{0, 0.5, -1}, clip: 0.2}
	var out [1]float64
	v := []float64{0.5, 9, 0.6, -1.1}
	k.forward(out[:], [][]float64{v})
	// row 0: (0.5−1)² = 0.25, clipped 0.2−1 → 0.64: max 0.64 (clipped)
	// row 2: (0.6−0)² = 0.36, clipped 0.6 → 0.36: 0.36
	// row 3: (−1.1+1)² = 0.01, clipped −1.1 → 0.01: 0.01
	assert.InDelta(t, 0.5*(0.64+0.36+0.01)/3, out[0], 1e-12)
	assert.Equal(t, []bool{true, false, false}, k.clipped)
	rng := rand.New(rand.NewPCG(1, 2))
	for _, clip := range []float64{0, 0.3} {
		k := &valueLossK[float64]{n: 5, rows: []int{4, 1, 0}, returns: []float64{1, -1, 0.5}, old: []float64{0.2, -0.5, 1.5}, clip: clip}
		checkKernel(t, k, []tensor.Shape{{5, 1}}, [][]float64{{0.9, -0.2, 7, 7, 1.6}}, rng)
	}
}
