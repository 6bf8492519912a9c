package algo

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/policy"
)

// lossAt runs the trainer's loss head (policy.LossHead) with the Loss of
// lc over batch on logits, one row of vocab values per response token in
// Sequence.Tokens order.
func lossAt(t *testing.T, lc LossConfig, batch []policy.Sequence, logits []float64) (float64, []float64) {
	t.Helper()
	obj, err := NewLoss(lc, batch)
	require.NoError(t, err)
	var toks []policy.Token
	var targets []int
	for i := range batch {
		toks = append(toks, batch[i].Tokens()...)
		targets = append(targets, batch[i].Response...)
		for _, br := range batch[i].Branches {
			targets = append(targets, br.Response...)
		}
	}
	loss, grad, err := policy.LossHead(logits, targets, toks, lc.Temperature, obj)
	require.NoError(t, err)
	return loss, grad
}

// Hand-computed per-token losses: vocab 2 with equal logits, so logp = −ln 2
// and H = ln 2 for either target.
func TestLossValues(t *testing.T) {
	ln2 := math.Ln2
	for _, tc := range []struct {
		name     string
		lc       LossConfig
		adv, old float64
		ref      float64 // NaN: none
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
		{"kl without a reference", LossConfig{Kind: PG, KLCoef: 2}, 0, -ln2, math.NaN(), 0, false},
	} {
		sq := policy.Sequence{Prompt: []int{0}, Response: []int{1}, Advantages: []float32{float32(tc.adv)}, OldLogProbs: []float32{float32(tc.old)}}
		if !math.IsNaN(tc.ref) {
			sq.RefLogProbs = []float32{float32(tc.ref)}
		}
		batch := []policy.Sequence{sq}
		loss, _ := lossAt(t, tc.lc, batch, []float64{0.7, 0.7})
		assert.InDelta(t, tc.want, loss, 1e-6, tc.name)
		obj, err := NewLoss(tc.lc, batch)
		require.NoError(t, err)
		st := obj.Stats(batch, [][]float32{{float32(-ln2)}})
		assert.Equal(t, tc.wantClip, st.ClipFrac == 1, tc.name)
		if tc.lc.KLCoef == 0 && tc.lc.EntropyCoef == 0 {
			assert.InDelta(t, tc.want, st.PolicyLoss, 1e-6, "%s: the loss is its policy term", tc.name)
		}
	}
	// at temperature 2 the logits (1, 0) are (0.5, 0): target 1 has
	// log-prob −log(1 + e^0.5), and the PG loss with A = 1 is its negative
	sq := policy.Sequence{Prompt: []int{0}, Response: []int{1}}
	loss, _ := lossAt(t, LossConfig{Kind: PG, Temperature: 2}, []policy.Sequence{sq}, []float64{1, 0})
	assert.InDelta(t, math.Log(1+math.Exp(0.5)), loss, 1e-12)
}

// The whole loss, as the trainer computes it from the logits (log-softmax,
// entropy, the clipped surrogate, the KL and entropy terms, the
// aggregation weights), against central finite differences of the same
// function, for every combination of: loss kind, tokens where the clip is
// active and where it is not, KL on and off, entropy bonus on and off,
// temperature 1 and not, and every aggregation. The batch holds a packed
// sequence, so turns of different lengths meet the per-turn weights.
func TestLossGradientFiniteDifferences(t *testing.T) {
	const V = 5
	rng := rand.New(rand.NewPCG(41, 42))
	tokens := []policy.Sequence{
		{Prompt: []int{0, 1}, Response: []int{2, 3, 4}, Branches: []policy.Branch{{Prefix: 1, Tail: []int{3}, Response: []int{1}}}},
		{Prompt: []int{0}, Response: []int{0, 4}},
	}
	n := 6 // response tokens
	logits := make([]float64, n*V)
	for i := range logits {
		logits[i] = rng.NormFloat64()
	}
	// old log-probs placed against the model's own: per token a log-ratio
	// and an advantage sign giving, at clip ε 0.2, clip inactive (inside the
	// range), clipped (ratio above 1+ε with A > 0, below 1−ε with A < 0) and
	// outside the range but not clipped (above 1+ε with A < 0)
	logRatio := []float64{0.05, math.Log(1.5), -0.1, math.Log(0.5), math.Log(1.6), 0.02}
	advSign := []float64{1, 1, -1, -1, -1, 1}
	for _, temp := range []float64{1, 0.7} {
		logp := logSoftmaxTargets(logits, tokens, V, temp)
		batch := withTokenData(tokens, logp, logRatio, advSign, rng)
		for _, kind := range []LossKind{Clip, PG} {
			for _, kl := range []float64{0, 0.3} {
				for _, ent := range []float64{0, 0.05} {
					for _, agg := range []Aggregation{TokenMean, SeqMeanTokenSum, SeqMeanTokenMean, SeqMeanTokenSumNorm} {
						lc := LossConfig{Kind: kind, ClipEps: 0.2, KLCoef: kl, EntropyCoef: ent, Agg: agg, NormLen: 8, Temperature: temp}
						name := fmt.Sprintf("%s kl %v entropy %v %s temperature %v", kind, kl, ent, agg, temp)
						_, grad := lossAt(t, lc, batch, logits)
						const h = 1e-6
						for i := range logits {
							x := logits[i]
							logits[i] = x + h
							up, _ := lossAt(t, lc, batch, logits)
							logits[i] = x - h
							down, _ := lossAt(t, lc, batch, logits)
							logits[i] = x
							num := (up - down) / (2 * h)
							require.InDelta(t, num, grad[i], 1e-7+1e-6*math.Abs(num), "%s: logit %d", name, i)
						}
					}
				}
			}
		}
		// the clipped tokens really have no policy gradient: with neither KL
		// nor entropy, their rows' gradients vanish
		_, grad := lossAt(t, LossConfig{Kind: Clip, ClipEps: 0.2, Temperature: temp}, batch, logits)
		for tok, clipped := range []bool{false, true, false, true, false, false} {
			row := grad[tok*V : (tok+1)*V]
			norm := 0.0
			for _, g := range row {
				norm = math.Max(norm, math.Abs(g))
			}
			if clipped {
				assert.Zero(t, norm, "token %d is clipped", tok)
			} else {
				assert.Greater(t, norm, 1e-3, "token %d is not", tok)
			}
		}
	}
}

// logSoftmaxTargets is the log-prob of each response token of batch (in
// Tokens order) under softmax(logits / temp), computed directly.
func logSoftmaxTargets(logits []float64, batch []policy.Sequence, V int, temp float64) []float64 {
	var targets []int
	for i := range batch {
		targets = append(targets, batch[i].Response...)
		for _, br := range batch[i].Branches {
			targets = append(targets, br.Response...)
		}
	}
	out := make([]float64, len(targets))
	for i, tgt := range targets {
		var sum float64
		for _, z := range logits[i*V : (i+1)*V] {
			sum += math.Exp(z / temp)
		}
		out[i] = logits[i*V+tgt]/temp - math.Log(sum)
	}
	return out
}

// withTokenData gives the response tokens of batch (in Tokens order)
// advantages of the given signs, old log-probs logp − logRatio, and
// reference log-probs near logp.
func withTokenData(batch []policy.Sequence, logp, logRatio, advSign []float64, rng *rand.Rand) []policy.Sequence {
	out := make([]policy.Sequence, len(batch))
	k := 0
	fill := func(n int) (adv, old, ref []float32) {
		for range n {
			adv = append(adv, float32(advSign[k]*(0.5+rng.Float64())))
			old = append(old, float32(logp[k]-logRatio[k]))
			ref = append(ref, float32(logp[k]+0.3*rng.NormFloat64()))
			k++
		}
		return adv, old, ref
	}
	for i, s := range batch {
		s.Advantages, s.OldLogProbs, s.RefLogProbs = fill(len(s.Response))
		s.Branches = append([]policy.Branch(nil), s.Branches...)
		for j := range s.Branches {
			br := &s.Branches[j]
			br.Advantages, br.OldLogProbs, br.RefLogProbs = fill(len(br.Response))
		}
		out[i] = s
	}
	return out
}

func TestAggregationWeights(t *testing.T) {
	batch := []policy.Sequence{{Response: make([]int, 2), OldLogProbs: make([]float32, 2)}, {Response: make([]int, 6), OldLogProbs: make([]float32, 6)}}
	for agg, want := range map[Aggregation][2]float64{
		TokenMean:           {1.0 / 8, 1.0 / 8},
		SeqMeanTokenSum:     {1.0 / 2, 1.0 / 2},
		SeqMeanTokenMean:    {1.0 / 4, 1.0 / 12},
		SeqMeanTokenSumNorm: {1.0 / 20, 1.0 / 20},
	} {
		obj, err := NewLoss(LossConfig{Agg: agg, NormLen: 10}, batch)
		require.NoError(t, err)
		assert.InDelta(t, want[0], obj.Token(policy.Token{TurnLen: 2}).Weight, 1e-15, agg)
		assert.InDelta(t, want[1], obj.Token(policy.Token{TurnLen: 6}).Weight, 1e-15, agg)
	}
	// a packed turn weighs as the turn it stands for
	packed := []policy.Sequence{{Response: make([]int, 2), OldLogProbs: make([]float32, 2),
		Branches: []policy.Branch{{Response: make([]int, 6), OldLogProbs: make([]float32, 6)}}}}
	obj, err := NewLoss(LossConfig{Agg: SeqMeanTokenMean}, packed)
	require.NoError(t, err)
	assert.InDelta(t, 1.0/12, obj.Token(policy.Token{TurnLen: 6}).Weight, 1e-15)
}

func TestNewLossErrors(t *testing.T) {
	_, err := NewLoss(LossConfig{}, []policy.Sequence{{Response: []int{1, 2}, OldLogProbs: []float32{-1}}})
	assert.ErrorContains(t, err, "the clipped loss (loss.kind = clip) needs one old log-prob per response token")
	_, err = NewLoss(LossConfig{Kind: PG}, []policy.Sequence{{Response: []int{1, 2}}})
	assert.NoError(t, err, "the plain policy gradient needs none")
	_, err = NewLoss(LossConfig{Kind: PG, Agg: SeqMeanTokenSumNorm}, nil)
	assert.ErrorContains(t, err, "loss.norm_len")
	_, err = NewLoss(LossConfig{ClipEps: 3}, nil)
	assert.ErrorContains(t, err, "loss.clip_eps = 3")
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
