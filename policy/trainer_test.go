package policy

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLRSchedule(t *testing.T) {
	oc := OptimConfig{LR: 1, WarmupSteps: 4, TotalSteps: 12, MinLRFrac: 0.1}
	require.NoError(t, oc.Validate())
	for step, want := range map[int]float64{1: 0.25, 4: 1, 8: 0.1 + 0.9*0.5, 12: 0.1, 20: 0.1} {
		assert.InDelta(t, want, oc.LRAt(step), 1e-12, "step %d", step)
	}
	assert.InDelta(t, 1e-3, OptimConfig{}.LRAt(7), 0, "defaults: constant 1e-3")
}

// Decay is the cosine's factor by the fraction of its length, clamped to
// [0, 1]; the schedule by steps uses it, so both decays share one formula.
func TestDecay(t *testing.T) {
	oc := OptimConfig{MinLRFrac: 0.2}
	for frac, want := range map[float64]float64{-1: 1, 0: 1, 0.25: 0.2 + 0.8*(0.5+0.5*math.Sqrt(0.5)), 0.5: 0.6, 1: 0.2, 3: 0.2} {
		assert.InDelta(t, want, oc.Decay(frac), 1e-12, "frac %v", frac)
	}
	assert.Equal(t, 0.0, OptimConfig{}.Decay(1), "the floor is exactly min_lr_frac, 0 too")
	steps := OptimConfig{LR: 2, WarmupSteps: 2, TotalSteps: 10, MinLRFrac: 0.2}
	assert.Equal(t, 2*steps.Decay(0.5), steps.LRAt(6))
}

// SetLRScale multiplies the schedule's rate of the steps that follow:
// Adam's first step moves each parameter by the scaled lr; 0 freezes
// the weights; a negative or non-finite scale is refused.
func TestSetLRScale(t *testing.T) {
	w := &Weights{Params: []*Param{{Name: "x", Data: []float32{1, 2, 3}}}}
	a, err := newAdam(w, OptimConfig{LR: 0.1, WarmupSteps: 2})
	require.NoError(t, err)
	require.NoError(t, a.setScale(0.5))
	_, lr := a.step([][]float32{w.Params[0].Data}, [][]float32{{3, -4, 0}})
	assert.Equal(t, 0.1*0.5*0.5, lr, "warm-up step 1 of 2, times the scale")
	assert.InDeltaSlice(t, []float32{1 - 0.025, 2 + 0.025, 3}, w.Params[0].Data, 1e-6)
	require.NoError(t, a.setScale(0))
	before := append([]float32(nil), w.Params[0].Data...)
	_, lr = a.step([][]float32{w.Params[0].Data}, [][]float32{{3, -4, 0}})
	assert.Equal(t, 0.0, lr)
	assert.Equal(t, before, w.Params[0].Data)
	for _, bad := range []float64{-0.1, math.NaN(), math.Inf(1)} {
		assert.ErrorContains(t, a.setScale(bad), "must be finite and ≥ 0")
	}
	tr, err := NewTrainer(randomWeights(t, tinyConfig, false, 1), OptimConfig{})
	require.NoError(t, err)
	assert.ErrorContains(t, tr.SetLRScale(-1), "trainer: learning-rate scale -1")
}

func TestOptimConfigValidate(t *testing.T) {
	for _, tc := range []struct {
		oc   OptimConfig
		want string
	}{
		{OptimConfig{LR: -1}, "optim.lr"},
		{OptimConfig{Beta1: 1}, "optim.beta1"},
		{OptimConfig{Beta2: -0.1}, "optim.beta2"},
		{OptimConfig{Eps: -1}, "optim.eps"},
		{OptimConfig{WeightDecay: -1}, "optim.weight_decay"},
		{OptimConfig{MaxGradNorm: math.Inf(1)}, "optim.max_grad_norm"},
		{OptimConfig{WarmupSteps: 10, TotalSteps: 5}, "total steps = 5 is below optim.warmup_steps = 10"},
		{OptimConfig{MinLRFrac: 2}, "optim.min_lr_frac"},
	} {
		require.ErrorContains(t, tc.oc.Validate(), tc.want)
	}
}

// Adam's first step moves each parameter by lr·g/(|g| + ε) (bias
// corrections cancel), and clipping scales the gradient, not the step size.
func TestAdamFirstStep(t *testing.T) {
	w := &Weights{Params: []*Param{{Name: "x", Data: []float32{1, 2, 3}}}}
	a, err := newAdam(w, OptimConfig{LR: 0.1, MaxGradNorm: 1})
	require.NoError(t, err)
	norm, lr := a.step([][]float32{w.Params[0].Data}, [][]float32{{3, -4, 0}})
	assert.InDelta(t, 5, norm, 1e-6)
	assert.InDelta(t, 0.1, lr, 0)
	assert.InDeltaSlice(t, []float32{0.9, 2.1, 3}, w.Params[0].Data, 1e-6)
	st := a.stateCopy()
	assert.Equal(t, 1, st.Step)
	assert.InDeltaSlice(t, []float32{0.1 * 0.6, 0.1 * -0.8, 0}, st.M[0], 1e-7)
	// second step with g = 0: m decays, p keeps moving the same way
	a.step([][]float32{w.Params[0].Data}, [][]float32{{0, 0, 0}})
	assert.Less(t, w.Params[0].Data[0], float32(0.9))
	// weight decay is decoupled: with zero gradients it shrinks the weights by lr·wd
	w2 := &Weights{Params: []*Param{{Name: "x", Data: []float32{2}}}}
	a2, _ := newAdam(w2, OptimConfig{LR: 0.1, WeightDecay: 0.5})
	a2.step([][]float32{w2.Params[0].Data}, [][]float32{{0}})
	assert.InDelta(t, 2*(1-0.05), w2.Params[0].Data[0], 1e-6)
}

func seqFor(rng *rand.Rand, c Config, np, nr int) Sequence {
	s := Sequence{Prompt: randomTokens(rng, np, c.Vocab), Response: randomTokens(rng, nr, c.Vocab)}
	for range nr {
		s.Advantages = append(s.Advantages, 1)
	}
	return s
}

// Supervised steps fit a fixed batch: the cross-entropy falls from about
// log(vocab) to well below it, and Evaluate sees the change.
func TestSupervisedStepLearns(t *testing.T) {
	c := tinyConfig
	w, err := NewWeights(c, rand.New(rand.NewPCG(1, 1)))
	require.NoError(t, err)
	tr, err := NewTrainer(w, OptimConfig{LR: 1e-2})
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(2, 2))
	batch := []Sequence{seqFor(rng, c, 3, 4), seqFor(rng, c, 5, 2), seqFor(rng, c, 1, 6)}
	first, err := tr.SupervisedStep(batch)
	require.NoError(t, err)
	assert.InDelta(t, math.Log(float64(c.Vocab)), first.Loss, 0.1)
	assert.Equal(t, 12, first.Tokens)
	require.Len(t, first.LogProbs, 3)
	var nll float64
	for _, lp := range first.LogProbs {
		for _, x := range lp {
			nll -= float64(x) / 12
		}
	}
	assert.InDelta(t, first.Loss, nll, 1e-5, "the loss is the mean −logp of the log-probs the step saw")
	var last Stats
	for range 60 {
		last, err = tr.SupervisedStep(batch)
		require.NoError(t, err)
	}
	assert.Less(t, last.Loss, 0.3*first.Loss)
	logp, _, err := tr.Evaluate(batch, 1)
	require.NoError(t, err)
	var mean float64
	for _, lp := range logp {
		for _, x := range lp {
			mean -= float64(x) / 12
		}
	}
	assert.InDelta(t, last.Loss, mean, 0.1)
	assert.Equal(t, 61, tr.State().Step)
}

// A policy-gradient step with positive advantages raises the log-probs of
// the response tokens, negative ones lower them; the step reports the
// log-probs before its update.
func TestStepFollowsAdvantageSign(t *testing.T) {
	for _, sign := range []float32{1, -1} {
		w := randomWeights(t, tinyConfig, false, 8)
		tr, err := NewTrainer(w, OptimConfig{LR: 1e-3})
		require.NoError(t, err)
		rng := rand.New(rand.NewPCG(3, 3))
		batch := []Sequence{seqFor(rng, tinyConfig, 4, 5), seqFor(rng, tinyConfig, 2, 3)}
		before, _, err := tr.Evaluate(batch, 1)
		require.NoError(t, err)
		for i := range batch {
			batch[i].OldLogProbs = before[i]
			for j := range batch[i].Advantages {
				batch[i].Advantages[j] = sign
			}
		}
		st, err := tr.Step(batch, 1, meanObjective(batch, testObjective{}))
		require.NoError(t, err)
		for i := range batch {
			assert.InDeltaSlice(t, toF64(before[i]), toF64(st.LogProbs[i]), 1e-6)
		}
		assert.Greater(t, st.GradNorm, 0.0)
		after, _, err := tr.Evaluate(batch, 1)
		require.NoError(t, err)
		var delta float64
		for i := range after {
			for j := range after[i] {
				delta += float64(after[i][j] - before[i][j])
			}
		}
		assert.Greater(t, float64(sign)*delta, 0.0)
	}
}

// A batch larger than one graph run is split into chunks; its gradient
// equals the gradient of the same batch in one run.
func TestChunkedGradientsMatch(t *testing.T) {
	c := Config{Vocab: 11, Context: 64, Layers: 1, DModel: 8, Heads: 2}
	rng := rand.New(rand.NewPCG(4, 4))
	var batch []Sequence
	for range maxChunkTokens/64 + 3 {
		batch = append(batch, seqFor(rng, c, 40, 20))
	}
	w := randomWeights(t, c, false, 9)
	tr, err := NewTrainer(w.Clone(), OptimConfig{})
	require.NoError(t, err)
	obj := meanObjective(batch, testObjective{square: 0.1})
	_, err = tr.Step(batch, 1, obj)
	require.NoError(t, err)
	require.Len(t, tr.graphs, 2, "two chunks of different batch buckets")
	whole := tr.Gradients()
	// the same loss as a sum over two half batches with the whole batch's weights
	ref := float64Params(w)
	sum := make([][]float64, len(ref))
	for _, part := range [][2]int{{0, len(batch) / 2}, {len(batch) / 2, len(batch)}} {
		gr, err := newGraph(w, ref, bucketBatch(part[1]-part[0]), 64, false)
		require.NoError(t, err)
		fillPolicy(gr, batch[part[0]:part[1]], 1, obj)
		require.NoError(t, gr.run(ref, true))
		for i := range ref {
			if sum[i] == nil {
				sum[i] = make([]float64, len(ref[i]))
			}
			for j, g := range gr.grad(i) {
				sum[i][j] += g
			}
		}
	}
	for i := range sum {
		for j := range sum[i] {
			require.InDelta(t, sum[i][j], float64(whole[i][j]), 1e-5+1e-3*math.Abs(sum[i][j]))
		}
	}
}

func TestTrainerErrorsAndState(t *testing.T) {
	w := randomWeights(t, tinyConfig, false, 10)
	tr, err := NewTrainer(w, OptimConfig{})
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(5, 5))
	good := seqFor(rng, tinyConfig, 3, 3)
	good.OldLogProbs = []float32{-1, -1, -1}
	for _, tc := range []struct {
		s    Sequence
		want string
	}{
		{Sequence{Response: []int{1}}, "empty prompt"},
		{Sequence{Prompt: []int{1}}, "empty response"},
		{Sequence{Prompt: make([]int, 10), Response: make([]int, 8), OldLogProbs: make([]float32, 8)}, "exceed model.context"},
		{Sequence{Prompt: []int{1}, Response: []int{99}, OldLogProbs: []float32{0}}, "outside the vocabulary"},
		{Sequence{Prompt: []int{1}, Response: []int{2, 3}, OldLogProbs: []float32{-1}}, "old log-probs"},
		{Sequence{Prompt: []int{1}, Response: []int{2}, OldLogProbs: []float32{float32(math.NaN())}}, "non-finite"},
	} {
		_, err := tr.Step([]Sequence{good, tc.s}, 1, testObjective{w: 1})
		require.ErrorContains(t, err, tc.want)
	}
	_, err = tr.Step(nil, 1, testObjective{w: 1})
	require.Error(t, err)
	_, err = tr.Step([]Sequence{good}, -2, testObjective{w: 1})
	require.ErrorContains(t, err, "sample.temperature = -2")
	_, err = tr.Step([]Sequence{good}, 1, nil)
	require.ErrorContains(t, err, "no objective")
	_, err = tr.Step([]Sequence{good}, 1, testObjective{w: 1})
	require.NoError(t, err)
	st := tr.State()
	require.Equal(t, 1, st.Step)
	tr2, err := NewTrainer(w, OptimConfig{})
	require.NoError(t, err)
	require.NoError(t, tr2.SetState(st))
	require.Equal(t, st, tr2.State())
	st.M = st.M[:3]
	require.ErrorContains(t, tr2.SetState(st), "moment tensors")
	crit, _ := NewCriticWeights(tinyConfig, rand.New(rand.NewPCG(1, 1)))
	_, err = NewTrainer(crit, OptimConfig{})
	require.ErrorContains(t, err, "parameter")
}

// The critic fits returns: its loss falls and its values approach them.
func TestCriticLearns(t *testing.T) {
	w, err := NewCriticWeights(tinyConfig, rand.New(rand.NewPCG(1, 2)))
	require.NoError(t, err)
	c, err := NewCritic(w, OptimConfig{LR: 1e-2})
	require.NoError(t, err)
	prompts := [][]int{{1, 2, 3}, {4, 5}, {6, 7, 8, 9, 10, 11}, {12}}
	returns := []float64{1, -1, 0.5, 2}
	first, err := c.Step(prompts, returns, nil, 0)
	require.NoError(t, err)
	var last ValueStats
	for range 80 {
		last, err = c.Step(prompts, returns, nil, 0)
		require.NoError(t, err)
	}
	assert.Less(t, last.Loss, 0.05*first.Loss)
	v, err := c.Values(prompts)
	require.NoError(t, err)
	for i := range v {
		assert.InDelta(t, returns[i], v[i], 0.3)
	}
	// clipping: old values 1 away on the far side of the returns, clip 0.1: the clipped error dominates
	old := []float64{v[0] + 1, v[1] - 1, v[2] + 1, v[3] - 1}
	st, err := c.Step(prompts, []float64{v[0] - 0.5, v[1] + 0.5, v[2] - 0.5, v[3] + 0.5}, old, 0.1)
	require.NoError(t, err)
	assert.Equal(t, 1.0, st.ClipFrac)
	_, err = c.Step(prompts, returns[:2], nil, 0)
	require.ErrorContains(t, err, "returns")
	_, err = c.Step(prompts, returns, nil, 0.2)
	require.ErrorContains(t, err, "old values")
	_, err = c.Values([][]int{{}})
	require.ErrorContains(t, err, "prompt 0")
	_, err = NewCritic(randomWeights(t, tinyConfig, false, 1), OptimConfig{})
	require.ErrorContains(t, err, "NewCriticWeights")
}

// Evaluate groups a large batch by length; each sequence's log-probs and
// entropies are bit for bit those of the sequence evaluated alone, in the
// caller's order, whatever lengths sit beside it.
func TestEvaluateGroupsChangeNoValue(t *testing.T) {
	c := Config{Vocab: 24, Context: 96, Layers: 1, DModel: 16, Heads: 2}
	tr, err := NewTrainer(randomWeights(t, c, false, 5), OptimConfig{})
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(3, 3))
	batch := make([]Sequence, 150)
	for i := range batch {
		batch[i] = seqFor(rng, c, 1+rng.IntN(70), 1+rng.IntN(6))
	}
	groups := evalGroups(batch, c.Context)
	require.Greater(t, len(groups), 2, "a batch of 150 mixed lengths runs in several groups")
	seen := 0
	for _, g := range groups {
		require.Equal(t, bucketBatch(len(g)), len(g), "a group has a power-of-two size")
		seen += len(g)
	}
	require.Equal(t, len(batch), seen)
	logp, ent, err := tr.Evaluate(batch, 1)
	require.NoError(t, err)
	for i := range batch {
		lp1, h1, err := tr.Evaluate(batch[i:i+1], 1)
		require.NoError(t, err)
		require.Equal(t, lp1[0], logp[i], "sequence %d", i)
		require.Equal(t, h1[0], ent[i], "sequence %d", i)
	}
}
