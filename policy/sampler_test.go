package policy

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The sampler's token log-probs equal the training graph's on random weights
// and prompts of different lengths, untied (seeds 1–4) and with tied
// embeddings (seeds 5–6: both read tok_emb transposed for the logits).
func TestSamplerMatchesGraph(t *testing.T) {
	wide := Config{Vocab: 13, Context: 16, Layers: 2, DModel: 32, Heads: 2} // head width 16: the AVX2 attention path
	for seed := uint64(1); seed <= 6; seed++ {
		cfg := tinyConfig
		if seed%2 == 0 {
			cfg = wide
		}
		cfg.TieEmbeddings = seed > 4
		w := randomWeights(t, cfg, false, seed)
		rng := rand.New(rand.NewPCG(seed, 7))
		var prompts [][]int
		for _, n := range []int{1, 3, 7, 12, 5} {
			prompts = append(prompts, randomTokens(rng, n, cfg.Vocab))
		}
		s := NewSampler(w)
		samples, err := s.Sample(prompts, SampleConfig{MaxNewTokens: 6, EOS: 0}, rng)
		require.NoError(t, err)
		tr, err := NewTrainer(w, OptimConfig{})
		require.NoError(t, err)
		var batch []Sequence
		for i, smp := range samples {
			require.NotEmpty(t, smp.Tokens)
			batch = append(batch, Sequence{Prompt: prompts[i], Response: smp.Tokens})
		}
		logp, ent, err := tr.Evaluate(batch, 1)
		require.NoError(t, err)
		for i, smp := range samples {
			require.Len(t, logp[i], len(smp.Tokens))
			plain, err := s.LogProbs(prompts[i], smp.Tokens, 1)
			require.NoError(t, err)
			for j := range smp.Tokens {
				assert.InDelta(t, logp[i][j], smp.LogProbs[j], 1e-4, "seed %d seq %d token %d: graph vs sampler", seed, i, j)
				assert.InDelta(t, logp[i][j], plain[j], 1e-4, "seed %d seq %d token %d: graph vs plain forward", seed, i, j)
				assert.Less(t, smp.LogProbs[j], float32(0))
				assert.Greater(t, ent[i][j], float32(0))
				assert.LessOrEqual(t, ent[i][j], float32(math.Log(float64(cfg.Vocab))+1e-4))
			}
		}
	}
}

func TestSamplerDeterministicAndStops(t *testing.T) {
	w := randomWeights(t, tinyConfig, false, 4)
	s := NewSampler(w)
	prompts := [][]int{{1, 2, 3}, {4}, {5, 6, 7, 8, 9, 10}}
	sc := SampleConfig{MaxNewTokens: 5, EOS: 2, TopP: 0.9, Temperature: 0.8}
	a, err := s.Sample(prompts, sc, rand.New(rand.NewPCG(1, 1)))
	require.NoError(t, err)
	b, err := s.Sample(prompts, sc, rand.New(rand.NewPCG(1, 1)))
	require.NoError(t, err)
	require.Equal(t, a, b)
	// stop rules hold over many seeds
	sawEOS, sawMax := false, false
	for seed := uint64(0); seed < 40; seed++ {
		out, err := s.Sample(prompts, sc, rand.New(rand.NewPCG(seed, 3)))
		require.NoError(t, err)
		for _, o := range out {
			require.LessOrEqual(t, len(o.Tokens), 5)
			require.Len(t, o.LogProbs, len(o.Tokens))
			for j, tok := range o.Tokens {
				if j < len(o.Tokens)-1 {
					require.NotEqual(t, 2, tok, "EOS in the middle")
				}
			}
			if o.Stopped {
				sawEOS = true
				require.Equal(t, 2, o.Tokens[len(o.Tokens)-1])
			} else {
				sawMax = true
				require.Len(t, o.Tokens, 5)
			}
		}
	}
	assert.True(t, sawEOS && sawMax)
	// the context bounds the response: prompt + response ≤ Context + 1
	long := randomTokens(rand.New(rand.NewPCG(2, 2)), tinyConfig.Context-2, tinyConfig.Vocab)
	out, err := s.Sample([][]int{long}, SampleConfig{MaxNewTokens: 50, EOS: 12, Temperature: 0.01}, rand.New(rand.NewPCG(5, 5)))
	require.NoError(t, err)
	if !out[0].Stopped {
		require.Len(t, out[0].Tokens, 3)
	}
}

func TestSamplerGreedyIsArgmax(t *testing.T) {
	w := randomWeights(t, tinyConfig, false, 5)
	s := NewSampler(w)
	prompt := []int{1, 5, 9}
	out, err := s.Sample([][]int{prompt}, SampleConfig{MaxNewTokens: 4, Greedy: true, EOS: 0}, nil)
	require.NoError(t, err)
	// each greedy token has the highest log-prob among all candidates
	prefix := append([]int(nil), prompt...)
	for j, tok := range out[0].Tokens {
		best := float32(math.Inf(-1))
		for cand := 0; cand < tinyConfig.Vocab; cand++ {
			lp, err := s.LogProbs(prefix, []int{cand}, 1)
			require.NoError(t, err)
			best = max(best, lp[0])
		}
		require.InDelta(t, best, out[0].LogProbs[j], 1e-6)
		prefix = append(prefix, tok)
	}
	// top-p near 0 keeps only the most likely token: same as greedy
	tp, err := s.Sample([][]int{prompt}, SampleConfig{MaxNewTokens: 4, TopP: 1e-9, EOS: 0}, rand.New(rand.NewPCG(9, 9)))
	require.NoError(t, err)
	require.Equal(t, out[0].Tokens, tp[0].Tokens)
}

func TestSamplerErrors(t *testing.T) {
	w := randomWeights(t, tinyConfig, false, 6)
	s := NewSampler(w)
	rng := rand.New(rand.NewPCG(1, 1))
	ok := SampleConfig{MaxNewTokens: 3, EOS: 0}
	for name, tc := range map[string]struct {
		prompts [][]int
		sc      SampleConfig
		want    string
	}{
		"empty prompt":  {[][]int{{1}, {}}, ok, "prompt 1 is empty"},
		"long prompt":   {[][]int{make([]int, tinyConfig.Context+1)}, ok, "no room"},
		"bad token":     {[][]int{{1, 99}}, ok, "outside the vocabulary"},
		"no new tokens": {[][]int{{1}}, SampleConfig{EOS: 0}, "max_new_tokens"},
		"bad top-p":     {[][]int{{1}}, SampleConfig{MaxNewTokens: 1, TopP: 1.5}, "top_p"},
		"bad temp":      {[][]int{{1}}, SampleConfig{MaxNewTokens: 1, Temperature: -1}, "temperature"},
		"bad eos":       {[][]int{{1}}, SampleConfig{MaxNewTokens: 1, EOS: 13}, "EOS"},
	} {
		_, err := s.Sample(tc.prompts, tc.sc, rng)
		require.ErrorContains(t, err, tc.want, name)
	}
	_, err := s.LogProbs(nil, []int{1}, 1)
	require.Error(t, err)
}

// SampleEach gives each prompt the response it gets alone with the same
// rng: batching independent requests changes none of them.
func TestSampleEachIsBatchInvariant(t *testing.T) {
	w := randomWeights(t, tinyConfig, false, 6)
	s := NewSampler(w)
	prompts := [][]int{{1, 2, 3}, {4}, {5, 6, 7, 8, 9, 10}, {3, 3}}
	sc := SampleConfig{MaxNewTokens: 6, EOS: 2, TopP: 0.95, Temperature: 0.9}
	rngs := func(seed uint64) []*rand.Rand {
		out := make([]*rand.Rand, len(prompts))
		for i := range out {
			out[i] = rand.New(rand.NewPCG(seed, uint64(i)))
		}
		return out
	}
	for seed := uint64(0); seed < 10; seed++ {
		batch, err := s.SampleEach(prompts, sc, rngs(seed))
		require.NoError(t, err)
		for i, p := range prompts {
			alone, err := s.SampleEach([][]int{p}, sc, rngs(seed)[i:i+1])
			require.NoError(t, err)
			require.Equal(t, alone[0], batch[i], "seed %d prompt %d", seed, i)
		}
	}
	_, err := s.SampleEach(prompts, sc, rngs(0)[:2])
	require.ErrorContains(t, err, "2 rngs for 4 prompts")
	g, err := s.SampleEach(prompts, SampleConfig{MaxNewTokens: 4, EOS: 2, Greedy: true}, nil)
	require.NoError(t, err)
	require.Len(t, g, len(prompts))
}

// At a temperature the sampler records log softmax(z / T) before top-p's
// cut, the graph (Trainer.Evaluate) and the plain forward pass give the same
// values at T, and a trainer whose loss is at T sees its own samples: the
// first step sees log-probs equal to the sampled ones,
// while a loss at temperature 1 reads them as another policy's.
func TestSamplerTemperatureOnPolicy(t *testing.T) {
	cfg := Config{Vocab: 13, Context: 16, Layers: 2, DModel: 32, Heads: 2}
	for i, sc := range []SampleConfig{
		{MaxNewTokens: 6, EOS: 0, Temperature: 0.5},
		{MaxNewTokens: 6, EOS: 0, Temperature: 1.7},
		{MaxNewTokens: 6, EOS: 0, Temperature: 0.7, TopP: 0.8},
		{MaxNewTokens: 6, EOS: 0, Temperature: 2, Greedy: true},
	} {
		seed := uint64(20 + i)
		w := randomWeights(t, cfg, false, seed)
		rng := rand.New(rand.NewPCG(seed, 9))
		var prompts [][]int
		for _, n := range []int{2, 5, 9} {
			prompts = append(prompts, randomTokens(rng, n, cfg.Vocab))
		}
		s := NewSampler(w)
		samples, err := s.Sample(prompts, sc, rng)
		require.NoError(t, err)
		var batch []Sequence
		for j, smp := range samples {
			adv := make([]float32, len(smp.Tokens))
			for k := range adv {
				adv[k] = 1
			}
			batch = append(batch, Sequence{Prompt: prompts[j], Response: smp.Tokens, Advantages: adv, OldLogProbs: smp.LogProbs})
		}
		tr, err := NewTrainer(w, OptimConfig{LR: 1e-2})
		require.NoError(t, err)
		atT, _, err := tr.Evaluate(batch, sc.Temperature)
		require.NoError(t, err)
		at1, _, err := tr.Evaluate(batch, 1)
		require.NoError(t, err)
		var differ float64
		for j, smp := range samples {
			plain, err := s.LogProbs(prompts[j], smp.Tokens, sc.Temperature)
			require.NoError(t, err)
			for k := range smp.Tokens {
				assert.InDelta(t, atT[j][k], smp.LogProbs[k], 1e-4, "config %d seq %d token %d: graph vs sampler", i, j, k)
				assert.InDelta(t, atT[j][k], plain[k], 1e-4, "config %d seq %d token %d: graph vs plain forward", i, j, k)
				differ = math.Max(differ, math.Abs(float64(at1[j][k]-smp.LogProbs[k])))
			}
		}
		assert.Greater(t, differ, 0.05, "config %d: the temperature changes the log-probs", i)

		wrong, err := NewTrainer(randomWeights(t, cfg, false, seed), OptimConfig{LR: 1e-2})
		require.NoError(t, err)
		gap := func(st Stats) float64 { // the largest |log ρ| of the step
			var g float64
			for j := range batch {
				for k, lp := range st.LogProbs[j] {
					g = math.Max(g, math.Abs(float64(lp-batch[j].OldLogProbs[k])))
				}
			}
			return g
		}
		st1, err := wrong.Step(batch, 1, meanObjective(batch, testObjective{}))
		require.NoError(t, err)
		assert.Greater(t, gap(st1), 1e-2, "config %d: a step at temperature 1 is off-policy", i)
		st, err := tr.Step(batch, sc.Temperature, meanObjective(batch, testObjective{}))
		require.NoError(t, err)
		assert.Less(t, gap(st), 1e-4, "config %d: on-policy at the sampling temperature", i)
	}
	tr, err := NewTrainer(randomWeights(t, cfg, false, 1), OptimConfig{})
	require.NoError(t, err)
	_, _, err = tr.Evaluate([]Sequence{{Prompt: []int{1}, Response: []int{2}}}, -1)
	assert.ErrorContains(t, err, "sample.temperature = -1")
	_, err = NewSampler(randomWeights(t, cfg, false, 1)).LogProbs([]int{1}, []int{2}, math.NaN())
	assert.ErrorContains(t, err, "temperature NaN")
}
