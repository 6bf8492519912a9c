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

// recorder is a Learner that remembers what it was asked to optimise.
type recorder struct {
	batches [][]policy.Sequence
	loss    float64
	shift   float64
}

// Step records batch and reports every response token's log-prob as its
// old one plus shift.
func (r *recorder) Step(batch []policy.Sequence, temp float64, obj policy.Objective) (policy.Stats, error) {
	r.batches = append(r.batches, batch)
	st := policy.Stats{Loss: r.loss, Entropy: 2, LR: 0.1}
	for _, s := range batch {
		var lp []float32
		for _, t := range s.Tokens() {
			lp = append(lp, float32(t.OldLogProb+r.shift))
		}
		st.LogProbs = append(st.LogProbs, lp)
	}
	return st, nil
}

// mustNew is New that fails the test on an error.
func mustNew(t *testing.T, c Config, d Deps) Algorithm {
	t.Helper()
	a, err := New(c, d)
	require.NoError(t, err)
	return a
}

// the algorithms as DefaultConfig of package train sets them
var (
	rebn = Config{Name: "rebn", Gamma: 0.9}
	grpo = Config{Name: "grpo"}
)

// episode adds one episode with the given turn rewards; the last turn is
// terminated. Turn t's prompt is [episode, t] so tests can find it.
func episode(t *testing.T, b *buffer.Buffer, group int, rewards ...float64) {
	turns := make([]buffer.Transition, len(rewards))
	for i, r := range rewards {
		turns[i] = buffer.Transition{Prompt: []int{len(b.Episodes), i}, Response: []int{7, 8, 9}, LogProbs: []float32{-1, -1, -1}, Reward: r}
	}
	turns[len(turns)-1].Terminated = true
	_, err := b.AddEpisode(group, uint64(group), rewards[len(rewards)-1] > 0, turns)
	require.NoError(t, err)
}

func advantages(b *buffer.Buffer) []float64 {
	a := make([]float64, b.Len())
	for i, tr := range b.Transitions {
		a[i] = tr.Advantage
	}
	return a
}

func TestREINFORCEAdvantages(t *testing.T) {
	var b buffer.Buffer
	episode(t, &b, 0, 0, 0, 1)
	episode(t, &b, 1, -0.1)
	a := mustNew(t, Config{Name: "reinforce", Gamma: 0.5}, Deps{})
	l := &recorder{shift: math.Log(1.5)}
	m, err := a.Update(&b, l, rand.New(rand.NewPCG(1, 1)))
	require.NoError(t, err)
	assert.InDeltaSlice(t, []float64{0.25, 0.5, 1, -0.1}, advantages(&b), 1e-12)
	assert.InDelta(t, (1-0.1)/2, m["charts/episodic_return"], 1e-12)
	assert.InDelta(t, 0.5, m["charts/success_rate"], 1e-12)
	assert.InDelta(t, 2, m["charts/turns"], 1e-12)
	// every ratio is 1.5: approx KL (ρ−1) − log ρ, all clipped, pg = −1.2·A (A > 0) or −1.5·A
	assert.InDelta(t, 0.5-math.Log(1.5), m["losses/approx_kl"], 1e-6)
	assert.InDelta(t, 1, m["losses/clipfrac"], 0)
	assert.InDelta(t, -(1.2*(0.25+0.5+1)+1.5*-0.1)/4, m["losses/policy_loss"], 1e-6)
}

func TestReBNAdvantages(t *testing.T) {
	var b buffer.Buffer
	episode(t, &b, 0, 0, 1) // G = 0.9, 1 with γ 0.9
	episode(t, &b, 1, 0)    // G = 0
	episode(t, &b, 2, 0.5)  // G = 0.5
	_, err := mustNew(t, rebn, Deps{}).Update(&b, &recorder{}, rand.New(rand.NewPCG(1, 1)))
	require.NoError(t, err)
	g := []float64{0.9, 1, 0, 0.5}
	mean := 2.4 / 4
	var v float64
	for _, x := range g {
		v += (x - mean) * (x - mean)
	}
	std := math.Sqrt(v / 4)
	want := make([]float64, 4)
	for i, x := range g {
		want[i] = (x - mean) / (std + 1e-9)
	}
	assert.InDeltaSlice(t, want, advantages(&b), 1e-9)
	// Returns kept for inspection.
	assert.InDelta(t, 0.9, b.Transitions[0].Return, 1e-12)
}

func TestReBNZeroVariance(t *testing.T) {
	var b buffer.Buffer
	episode(t, &b, 0, 1)
	episode(t, &b, 1, 1)
	_, err := mustNew(t, rebn, Deps{}).Update(&b, &recorder{}, rand.New(rand.NewPCG(1, 1)))
	require.NoError(t, err)
	assert.Equal(t, []float64{0, 0}, advantages(&b))
}

func TestGRPOVariants(t *testing.T) {
	build := func() *buffer.Buffer {
		var b buffer.Buffer
		episode(t, &b, 0, 0, 1)    // R 1
		episode(t, &b, 0, 0, 0, 0) // R 0
		episode(t, &b, 0, 0.5)     // R 0.5
		episode(t, &b, 1, 0.2)     // a group of one
		return &b
	}
	// group 0: R = 1, 0, 0.5; mean 0.5; std sqrt(1/6)
	s := math.Sqrt(1.0 / 6)
	cases := []struct {
		variant string
		want    []float64 // per episode
	}{
		{VariantGRPO, []float64{0.5 / (s + 1e-6), -0.5 / (s + 1e-6), 0, 0}},
		{VariantDrGRPO, []float64{0.5, -0.5, 0, 0}},
		{VariantRLOO, []float64{1 - 0.25, 0 - 0.75, 0, 0}},
	}
	for _, c := range cases {
		t.Run(c.variant, func(t *testing.T) {
			b := build()
			a := mustNew(t, Config{Name: c.variant}, Deps{})
			m, err := a.Update(b, &recorder{}, rand.New(rand.NewPCG(1, 1)))
			require.NoError(t, err)
			for i, e := range b.Episodes {
				for _, tr := range b.Turns(e) {
					assert.InDelta(t, c.want[i], tr.Advantage, 1e-9, "episode %d turn %d", i, tr.Turn)
				}
			}
			assert.InDelta(t, 0.5, m["charts/zero_adv_groups"], 1e-12, "the group of one has no signal")
		})
	}
}

func TestGRPOSameAdvantagePerEpisode(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	for trial := 0; trial < 50; trial++ {
		var b buffer.Buffer
		for e := 0; e < 12; e++ {
			n := 1 + rng.IntN(6)
			r := make([]float64, n)
			for i := range r {
				r[i] = math.Round(rng.NormFloat64()*10) / 10
			}
			episode(t, &b, e/4, r...)
		}
		_, err := mustNew(t, grpo, Deps{}).Update(&b, &recorder{}, rng)
		require.NoError(t, err)
		for _, e := range b.Episodes {
			turns := b.Turns(e)
			for _, tr := range turns {
				assert.Equal(t, turns[0].Advantage, tr.Advantage)
			}
		}
	}
}

func TestOptimizeMinibatches(t *testing.T) {
	var b buffer.Buffer
	for e := 0; e < 10; e++ {
		episode(t, &b, e, 0, float64(e))
	}
	a := mustNew(t, Config{Name: "rebn", Gamma: 0.9, Epochs: 3, MinibatchSize: 6}, Deps{})
	l := &recorder{}
	m, err := a.Update(&b, l, rand.New(rand.NewPCG(2, 2)))
	require.NoError(t, err)
	// 20 transitions, minibatches of ≤ 6: 4 per epoch, 3 epochs.
	require.Len(t, l.batches, 12)
	assert.InDelta(t, 12, m["losses/optimizer_steps"], 0)
	for epoch := 0; epoch < 3; epoch++ {
		seen := map[[2]int]int{}
		for _, batch := range l.batches[epoch*4 : epoch*4+4] {
			assert.LessOrEqual(t, len(batch), 6)
			for _, s := range batch {
				seen[[2]int{s.Prompt[0], s.Prompt[1]}]++
				require.Len(t, s.Advantages, len(s.Response))
				tr := b.Transitions[2*s.Prompt[0]+s.Prompt[1]]
				for _, v := range s.Advantages {
					assert.Equal(t, float32(tr.Advantage), v, "advantage broadcast to every response token")
				}
				assert.Equal(t, tr.LogProbs, s.OldLogProbs)
			}
		}
		assert.Len(t, seen, 20, "every transition once per epoch")
	}
}

func TestOptimizeRejectsNaNAndEmpty(t *testing.T) {
	var b buffer.Buffer
	_, err := mustNew(t, rebn, Deps{}).Update(&b, &recorder{}, rand.New(rand.NewPCG(1, 1)))
	assert.ErrorContains(t, err, "empty buffer")
	episode(t, &b, 0, 1)
	_, err = mustNew(t, rebn, Deps{}).Update(&b, &recorder{loss: math.NaN()}, rand.New(rand.NewPCG(1, 1)))
	assert.ErrorContains(t, err, "NaN")
}

// SpreadGroups names the groups whose returns differ, in order of first
// appearance; a group of one, or of equal returns, teaches GRPO nothing.
func TestSpreadGroups(t *testing.T) {
	var b buffer.Buffer
	episode(t, &b, 4, 1)
	episode(t, &b, 2, 0)
	episode(t, &b, 4, 0) // group 4: 1 and 0
	episode(t, &b, 2, 0) // group 2: all 0
	episode(t, &b, 7, 0.5)
	episode(t, &b, 9, 0, 1) // group 9: returns 1 and 1
	episode(t, &b, 9, 1)
	episode(t, &b, 3, 0.25)
	episode(t, &b, 3, 0.5)
	assert.Equal(t, []int{4, 3}, SpreadGroups(&b))
	assert.Empty(t, SpreadGroups(&buffer.Buffer{}))
	// Exactly the groups GRPO gives a nonzero advantage.
	_, err := mustNew(t, grpo, Deps{}).Update(&b, &recorder{}, rand.New(rand.NewPCG(1, 1)))
	require.NoError(t, err)
	nonzero := map[int]bool{}
	for _, tr := range b.Transitions {
		if tr.Advantage != 0 {
			nonzero[tr.Group] = true
		}
	}
	assert.Equal(t, map[int]bool{4: true, 3: true}, nonzero)
}

// tempReference records the temperature of each reference call and gives
// every response token the log-prob −1.
type tempReference struct{ temps []float64 }

func (r *tempReference) Evaluate(batch []policy.Sequence, temp float64) ([][]float32, [][]float32, error) {
	r.temps = append(r.temps, temp)
	out := make([][]float32, len(batch))
	for i, s := range batch {
		out[i] = make([]float32, len(s.Response))
		for j := range out[i] {
			out[i][j] = -1
		}
	}
	return out, out, nil
}

// The KL reference is read at the loss's temperature (the sampling one), so
// that the penalty compares the same tempered policies.
func TestReferenceAtLossTemperature(t *testing.T) {
	for _, temp := range []float64{0, 0.7, 1.4} {
		var b buffer.Buffer
		episode(t, &b, 0, 0, 1)
		episode(t, &b, 0, 1)
		ref := &tempReference{}
		a := mustNew(t, rebn, Deps{Loss: LossConfig{KLCoef: 0.1, Temperature: temp}, Reference: ref})
		_, err := a.Update(&b, &recorder{}, rand.New(rand.NewPCG(1, 2)))
		require.NoError(t, err)
		assert.Equal(t, []float64{temp}, ref.temps, "one reference pass an iteration, at the loss's temperature")
	}
}
