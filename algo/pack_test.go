package algo

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/buffer"
	"github.com/gemgo/gemgo/policy"
)

// historyEpisode adds an episode whose turn t reads the growing history
// prompt BOS o_0 … o_t SEP (each o a few random tokens) and writes a random
// response; the last turn earns reward.
func historyEpisode(t *testing.T, b *buffer.Buffer, rng *rand.Rand, turns int, reward float64) {
	tok := func() int { return 3 + rng.IntN(20) }
	body := []int{policy.BOSID, tok(), tok()}
	var trs []buffer.Transition
	for i := 0; i < turns; i++ {
		prompt := append(append([]int(nil), body...), policy.SepID)
		resp := []int{tok(), tok(), policy.EOSID}
		lp := []float32{-3, -3, -0.1}
		trs = append(trs, buffer.Transition{Prompt: prompt, Response: resp, LogProbs: lp})
		body = append(body, tok(), tok(), tok())
	}
	trs[turns-1].Reward, trs[turns-1].Terminated = reward, true
	_, err := b.AddEpisode(len(b.Episodes), 0, reward > 0, trs)
	require.NoError(t, err)
}

// latestEpisode adds an episode whose turns read prompts of their own
// (BOS, the turn's number, a token, SEP), as with history none: no prompt
// extends another.
func latestEpisode(t *testing.T, b *buffer.Buffer, turns int) {
	var trs []buffer.Transition
	for i := 0; i < turns; i++ {
		trs = append(trs, buffer.Transition{Prompt: []int{policy.BOSID, 10 + i, 5, policy.SepID},
			Response: []int{7, policy.EOSID}, LogProbs: []float32{-1, -1}, Reward: float64(i % 2)})
	}
	trs[turns-1].Terminated = true
	_, err := b.AddEpisode(len(b.Episodes), 0, false, trs)
	require.NoError(t, err)
}

func TestPackUnits(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var b buffer.Buffer
	historyEpisode(t, &b, rng, 3, 1) // transitions 0-2: one unit
	latestEpisode(t, &b, 3)          // 3-5: no prompt extends another
	historyEpisode(t, &b, rng, 1, 0) // 6
	assert.Equal(t, [][]int{{0, 1, 2}, {3}, {4}, {5}, {6}}, packUnits(&b, 0))
	// The last turn reads 3 + 3·2 + 1 = 10 prompt tokens and writes 3: 12 rows; each
	// earlier turn adds 3. A limit of 15 rows packs one of them.
	assert.Equal(t, [][]int{{1}, {0, 2}, {3}, {4}, {5}, {6}}, packUnits(&b, 15)[:6])
	assert.True(t, extends([]int{1, 4, 5, 6, 7}, []int{1, 4, 5, 9}))
	assert.False(t, extends([]int{1, 4, 5}, []int{1, 4, 6, 9}))
	assert.False(t, extends([]int{1, 4}, []int{9}), "nothing shared")
}

// One update with algo.pack on a real policy moves the weights as the
// unpacked update does (the whole buffer in one step, so the two see the
// same turns), with the clipped loss and the KL term.
func TestPackedUpdateEqualsUnpacked(t *testing.T) {
	cfg := policy.Config{Vocab: 24, Context: 32, Layers: 1, DModel: 16, Heads: 2}
	build := func(pack bool) (*buffer.Buffer, *policy.Trainer, Metrics) {
		rng := rand.New(rand.NewPCG(3, 4))
		var b buffer.Buffer
		for e := 0; e < 6; e++ {
			historyEpisode(t, &b, rng, 1+e%4, float64(e%2))
		}
		w, err := policy.NewWeights(cfg, rand.New(rand.NewPCG(5, 6)))
		require.NoError(t, err)
		tr, err := policy.NewTrainer(w, policy.OptimConfig{LR: 1e-2})
		require.NoError(t, err)
		rw, err := policy.NewWeights(cfg, rand.New(rand.NewPCG(7, 8)))
		require.NoError(t, err)
		ref, err := policy.NewTrainer(rw, policy.OptimConfig{})
		require.NoError(t, err)
		a := mustNew(t, Config{Name: "rebn", Gamma: 0.9, Epochs: 1, Pack: pack}, Deps{Loss: LossConfig{KLCoef: 0.1}, Reference: ref})
		m, err := a.Update(&b, tr, rand.New(rand.NewPCG(9, 10)))
		require.NoError(t, err)
		return &b, tr, m
	}
	b1, t1, m1 := build(false)
	_, t2, m2 := build(true)
	require.Equal(t, 13, b1.Len())
	for _, k := range []string{"losses/loss", "losses/policy_loss", "losses/kl", "losses/entropy"} {
		assert.InDelta(t, m1[k], m2[k], 1e-5, k)
	}
	assert.Less(t, m2["perf/trained_tokens"], 0.8*m1["perf/trained_tokens"], "packing trains fewer tokens")
	for i, p := range t1.Weights().Params {
		q := t2.Weights().Params[i]
		for j := range p.Data {
			require.InDelta(t, p.Data[j], q.Data[j], 1e-5, p.Name)
		}
	}
	moved := 0.0
	w0, err := policy.NewWeights(cfg, rand.New(rand.NewPCG(5, 6)))
	require.NoError(t, err)
	for i, p := range t1.Weights().Params {
		for j := range p.Data {
			moved = math.Max(moved, math.Abs(float64(p.Data[j]-w0.Params[i].Data[j])))
		}
	}
	assert.Greater(t, moved, 1e-3, "the update moved the weights")
}

// With nothing to pack (no prompt extends another), algo.pack changes
// nothing: the learner sees the very minibatches of the unpacked update.
func TestPackNoSharingSameMinibatches(t *testing.T) {
	run := func(pack bool) [][]policy.Sequence {
		var b buffer.Buffer
		for e := 0; e < 10; e++ {
			latestEpisode(t, &b, 1+e%3)
		}
		l := &recorder{}
		a := mustNew(t, Config{Name: "rebn", Gamma: 0.9, Epochs: 2, MinibatchSize: 4, Pack: pack}, Deps{})
		_, err := a.Update(&b, l, rand.New(rand.NewPCG(11, 12)))
		require.NoError(t, err)
		return l.batches
	}
	assert.Equal(t, run(false), run(true))
}
