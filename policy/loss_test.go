package policy

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gorgonia.org/tensor"
)

// Hand-computed per-token losses: vocab 2 with equal logits, so logp = −ln 2
// and H = ln 2 for either target.
func TestPolicyLossValues(t *testing.T) {
	ln2 := math.Ln2
	for _, tc := range []struct {
		name     string
		lc       LossConfig
		adv, old float64
		ref      float64
		want     float64
		wantClip bool
	}{
		{"ratio 1", LossConfig{Kind: Clip, ClipEps: 0.2}, 2, -ln2, math.NaN(), -2, false},
		{"ratio 1.5 positive A is clipped", LossConfig{Kind: Clip, ClipEps: 0.2}, 1, -ln2 - math.Log(1.5), math.NaN(), -1.2, true},
		{"ratio 1.5 negative A is not", LossConfig{Kind: Clip, ClipEps: 0.2}, -1, -ln2 - math.Log(1.5), math.NaN(), 1.5, true},
		{"ratio 0.5 negative A is clipped", LossConfig{Kind: Clip, ClipEps: 0.2}, -1, -ln2 + math.Log(2), math.NaN(), 0.8, true},
		{"pg", LossConfig{Kind: PG}, 3, -ln2, math.NaN(), 3 * ln2, false},
		{"entropy bonus", LossConfig{Kind: PG, EntropyCoef: 0.5}, 1, -ln2, math.NaN(), ln2 - 0.5*ln2, false},
		// k3 with r = ref − logp = ln 2: e^r − r − 1 = 1 − ln 2
		{"kl", LossConfig{Kind: PG, KLCoef: 2}, 0, -ln2, 0, 2 * (1 - ln2), false},
	} {
		k := newPolicyLossK[float64](1, 2)
		k.lc = tc.lc.withDefaults()
		k.target[0], k.w[0], k.adv[0], k.old[0], k.ref[0] = 1, 1, tc.adv, tc.old, tc.ref
		var out [1]float64
		k.forward(out[:], [][]float64{{0.7, 0.7}})
		assert.InDelta(t, tc.want, out[0], 1e-12, tc.name)
		var st Stats
		tokenStats(k, &st)
		assert.Equal(t, tc.wantClip, st.ClipFrac == 1, tc.name)
		assert.InDelta(t, ln2, st.Entropy, 1e-12, tc.name)
	}
	// at temperature 2 the logits (1, 0) are (0.5, 0): target 1 has
	// log-prob −log(1 + e^0.5), and the PG loss with A = 1 is its negative
	k := newPolicyLossK[float64](1, 2)
	k.lc = LossConfig{Kind: PG, Temperature: 2}.withDefaults()
	k.target[0], k.w[0], k.adv[0], k.old[0], k.ref[0] = 1, 1, 1, math.NaN(), math.NaN()
	var out [1]float64
	k.forward(out[:], [][]float64{{1, 0}})
	assert.InDelta(t, math.Log(1+math.Exp(0.5)), out[0], 1e-12)
}

// The fused loss head on its own (log-softmax gather, entropy, clipped
// surrogate, KL) against finite differences, with padding rows.
func TestGradPolicyLoss(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	n, V := 6, 5
	for _, lc := range []LossConfig{
		{Kind: Clip, ClipEps: 0.2},
		{Kind: PG, EntropyCoef: 0.7},
		{Kind: Clip, ClipEps: 0.3, EntropyCoef: 0.2, KLCoef: 0.9},
		{Kind: Clip, ClipEps: 0.3, EntropyCoef: 0.2, KLCoef: 0.9, Temperature: 0.6},
		{Kind: PG, EntropyCoef: 0.4, KLCoef: 0.5, Temperature: 1.7},
	} {
		k := newPolicyLossK[float64](n, V)
		k.lc = lc.withDefaults()
		for i := range n {
			k.target[i] = rng.IntN(V)
			k.w[i] = rng.Float64()
			k.adv[i] = rng.NormFloat64()
			k.old[i] = -1.6 + 0.5*rng.NormFloat64()
			k.ref[i] = -1.6 + 0.5*rng.NormFloat64()
		}
		k.target[2], k.target[5] = -1, -1 // padding
		k.ref[3] = math.NaN()             // no reference
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

func TestAggregationWeights(t *testing.T) {
	batch := []Sequence{{Response: make([]int, 2)}, {Response: make([]int, 6)}}
	for agg, want := range map[Aggregation][2]float64{
		TokenMean:           {1.0 / 8, 1.0 / 8},
		SeqMeanTokenSum:     {1.0 / 2, 1.0 / 2},
		SeqMeanTokenMean:    {1.0 / 4, 1.0 / 12},
		SeqMeanTokenSumNorm: {1.0 / 20, 1.0 / 20},
	} {
		w := aggWeights(batch, LossConfig{Agg: agg, NormLen: 10}, 32)
		require.Len(t, w[0], 2)
		require.Len(t, w[1], 6)
		assert.InDelta(t, want[0], w[0][1], 1e-15, agg)
		assert.InDelta(t, want[1], w[1][5], 1e-15, agg)
	}
	w := aggWeights(batch, LossConfig{Agg: SeqMeanTokenSumNorm}, 32)
	assert.InDelta(t, 1.0/64, w[0][0], 1e-15, "NormLen 0 means the context")
}

func TestLossConfigValidate(t *testing.T) {
	require.NoError(t, LossConfig{}.Validate())
	for _, tc := range []struct {
		lc   LossConfig
		want string
	}{
		{LossConfig{Kind: "ppo2"}, "loss.kind"},
		{LossConfig{ClipEps: 1.5}, "loss.clip_eps"},
		{LossConfig{EntropyCoef: -1}, "loss.entropy_coef"},
		{LossConfig{KLCoef: math.NaN()}, "loss.kl_coef"},
		{LossConfig{Agg: "mean"}, "loss.agg"},
		{LossConfig{NormLen: -3}, "loss.norm_len"},
		{LossConfig{Temperature: -0.5}, "sample.temperature"},
		{LossConfig{Temperature: math.Inf(1)}, "sample.temperature"},
	} {
		require.ErrorContains(t, tc.lc.Validate(), tc.want)
	}
}
