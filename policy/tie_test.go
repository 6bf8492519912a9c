package policy

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/nlpodyssey/safetensors"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func specNames(specs []ParamSpec) []string {
	var n []string
	for _, s := range specs {
		n = append(n, s.Name)
	}
	return n
}

// A tied model's parameters are the untied model's, in the same order, less
// wout; the critic is the same network either way.
func TestTiedSpecs(t *testing.T) {
	tied := tinyConfig
	tied.TieEmbeddings = true
	untied := specNames(Specs(tinyConfig))
	require.Equal(t, []string{"lnf.g", "lnf.b", "wout", "bout"}, untied[len(untied)-4:], "the untied layout ends as it always has")
	want := slices.DeleteFunc(slices.Clone(untied), func(n string) bool { return n == "wout" })
	assert.Equal(t, want, specNames(Specs(tied)))
	assert.Equal(t, Specs(tinyConfig)[0], Specs(tied)[0], "tok_emb keeps its shape (vocab×d)")
	assert.Equal(t, CriticSpecs(tinyConfig), CriticSpecs(tied))
	assert.NotContains(t, specNames(CriticSpecs(tied)), "bout")

	w, err := NewWeights(tied, rand.New(rand.NewPCG(1, 1)))
	require.NoError(t, err)
	u, err := NewWeights(tinyConfig, rand.New(rand.NewPCG(1, 1)))
	require.NoError(t, err)
	assert.Equal(t, u.NumParams()-tinyConfig.DModel*tinyConfig.Vocab, w.NumParams())
}

// tiedCheckpoint is a tied policy with Adam state and a critic of the same
// config, every value random.
func tiedCheckpoint(t *testing.T) *Checkpoint {
	t.Helper()
	rng := rand.New(rand.NewPCG(3, 3))
	tok := BuildTokenizer(ckptCorpus, 10)
	cfg := Config{Vocab: tok.VocabSize(), Context: 4, Layers: 1, DModel: 4, Heads: 1, TieEmbeddings: true}
	w := randomWeights(t, cfg, false, 4)
	cw := randomWeights(t, cfg, true, 5)
	adam := func(w *Weights) *AdamState {
		a := &AdamState{Step: 7}
		for _, p := range w.Params {
			a.M, a.V = append(a.M, randData32(rng, p.Size())), append(a.V, randData32(rng, p.Size()))
		}
		return a
	}
	return &Checkpoint{Policy: w, PolicyAdam: adam(w), Critic: cw, CriticAdam: adam(cw), Tokenizer: tok, Meta: map[string]string{"k": "v"}}
}

func randData32(rng *rand.Rand, n int) []float32 {
	x := make([]float32, n)
	for i := range x {
		x[i] = float32(rng.NormFloat64())
	}
	return x
}

// A tied checkpoint holds no wout, records the key in its config, and loads
// back bit for bit; an untied one does not mention the key (its bytes are
// those of a build without it).
func TestTiedCheckpointRoundTrip(t *testing.T) {
	c := tiedCheckpoint(t)
	data, err := MarshalCheckpoint(c)
	require.NoError(t, err)
	_, md, err := safetensors.ReadMetadata(data)
	require.NoError(t, err)
	assert.NotContains(t, md.Tensors(), "policy/wout")
	assert.NotContains(t, md.Tensors(), "policy_adam_m/wout")
	assert.Contains(t, md.Tensors(), "policy/bout")
	assert.Contains(t, md.Metadata()[ckKeyConfig], `"tie_embeddings":true`)

	got, err := UnmarshalCheckpoint(data)
	require.NoError(t, err)
	require.Equal(t, c.Policy.Config, got.Config)
	for _, pair := range [][2]*Weights{{c.Policy, got.Policy}, {c.Critic, got.Critic}} {
		require.Equal(t, pair[0].Config, pair[1].Config)
		require.Equal(t, paramNames(pair[0]), paramNames(pair[1]))
		for i, p := range pair[0].Params {
			for j, x := range p.Data {
				require.Equal(t, math.Float32bits(x), math.Float32bits(pair[1].Params[i].Data[j]), "%s[%d]", p.Name, j)
			}
		}
	}
	require.Equal(t, c.PolicyAdam, got.PolicyAdam)
	require.Equal(t, c.CriticAdam, got.CriticAdam)
	again, err := MarshalCheckpoint(got)
	require.NoError(t, err)
	require.Equal(t, data, again)

	// The loaded model samples and trains.
	_, err = NewSampler(got.Policy).LogProbs([]int{1, 2}, []int{3}, 1)
	require.NoError(t, err)
	_, err = NewTrainer(got.Policy, OptimConfig{})
	require.NoError(t, err)

	_, md, err = safetensors.ReadMetadata(tinyCheckpointBytes(t))
	require.NoError(t, err)
	assert.NotContains(t, md.Metadata()[ckKeyConfig], "tie")
}

// A tied config over an untied model's weights, and the reverse, are
// errors that name model.tie_embeddings: in a checkpoint file, in a
// checkpoint to save, in a trainer, a sampler and a critic, and in
// Config.Diff.
func TestTieMismatchErrors(t *testing.T) {
	setTie := func(data []byte, tie bool) []byte {
		return reseal(t, data, func(m map[string]string, _ map[string]safetensors.TensorView) {
			var c Config
			require.NoError(t, json.Unmarshal([]byte(m[ckKeyConfig]), &c))
			c.TieEmbeddings = tie
			b, err := json.Marshal(c)
			require.NoError(t, err)
			m[ckKeyConfig] = string(b)
		})
	}
	_, err := UnmarshalCheckpoint(setTie(tinyCheckpointBytes(t), true))
	require.ErrorContains(t, err, `unexpected tensors "policy/wout", "policy_adam_m/wout", "policy_adam_v/wout"`)
	require.ErrorContains(t, err, "model.tie_embeddings = true")

	tied, err := MarshalCheckpoint(tiedCheckpoint(t))
	require.NoError(t, err)
	_, err = UnmarshalCheckpoint(setTie(tied, false))
	require.ErrorContains(t, err, `missing tensor "policy/wout"`)
	require.ErrorContains(t, err, "model.tie_embeddings = false")

	untiedW := randomWeights(t, tinyConfig, false, 1)
	untiedW.Config.TieEmbeddings = true
	tiedCfg := tinyConfig
	tiedCfg.TieEmbeddings = true
	tiedW := randomWeights(t, tiedCfg, false, 1)
	tiedW.Config.TieEmbeddings = false
	for _, tc := range []struct {
		w    *Weights
		want string
	}{
		{untiedW, "model.tie_embeddings = true: a tied model has no output matrix wout, its logits read tok_emb; these weights are an untied model's"},
		{tiedW, "model.tie_embeddings = false: an untied model needs its output matrix wout; these weights are a tied model's"},
	} {
		_, err := NewTrainer(tc.w, OptimConfig{})
		assert.ErrorContains(t, err, tc.want)
		_, err = NewSampler(tc.w).LogProbs([]int{1}, []int{2}, 1)
		assert.ErrorContains(t, err, tc.want)
		tok := BuildTokenizer(ckptCorpus, 10)
		w := randomWeights(t, Config{Vocab: tok.VocabSize(), Context: 4, Layers: 1, DModel: 4, Heads: 1, TieEmbeddings: !tc.w.Config.TieEmbeddings}, false, 2)
		w.Config.TieEmbeddings = tc.w.Config.TieEmbeddings
		_, err = MarshalCheckpoint(&Checkpoint{Policy: w, Tokenizer: tok})
		assert.ErrorContains(t, err, tc.want)
	}
	// A critic is the same network tied or not: no wout to disagree on.
	cw := randomWeights(t, tinyConfig, true, 3)
	cw.Config.TieEmbeddings = true
	_, err = NewCritic(cw, OptimConfig{})
	assert.NoError(t, err)

	require.NoError(t, tiedCfg.Diff(tiedCfg))
	assert.ErrorContains(t, tiedCfg.Diff(tinyConfig), "model.tie_embeddings = true, want false (a tied model has no output matrix wout")
	other := tinyConfig
	other.Layers, other.Vocab = 3, 20
	err = tiedCfg.Diff(other)
	assert.EqualError(t, err, "the vocabulary (the tokenizer's) = 13, want 20; model.layers = 2, want 3; "+
		"model.tie_embeddings = true, want false (a tied model has no output matrix wout, its logits read tok_emb: the weights of one do not fit the other)")
}
