package algo

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/buffer"
	"github.com/gemgo/gemgo/policy"
)

// criticRecorder is a ValueLearner that remembers its targets.
type criticRecorder struct {
	returns map[int]float64 // by prompt[0]*10 + prompt[1]
	calls   int
}

func (c *criticRecorder) Step(prompts [][]int, returns, old []float64, clip float64) (policy.ValueStats, error) {
	c.calls++
	for j, p := range prompts {
		c.returns[p[0]*10+p[1]] = returns[j]
	}
	return policy.ValueStats{Loss: 0.5}, nil
}

func TestPPOAdvantages(t *testing.T) {
	var b buffer.Buffer
	// Episode 0: terminated after two turns. Values 0.5, 0.6.
	t0 := []buffer.Transition{
		{Prompt: []int{0, 0}, Response: []int{1}, LogProbs: []float32{-1}, Reward: 0, Value: 0.5},
		{Prompt: []int{0, 1}, Response: []int{1}, LogProbs: []float32{-1}, Reward: 1, Value: 0.6, Terminated: true, NextValue: 9},
	}
	// Episode 1: truncated after one turn; bootstrap from NextValue 0.4.
	t1 := []buffer.Transition{
		{Prompt: []int{1, 0}, Response: []int{1}, LogProbs: []float32{-1}, Reward: 0.2, Value: 0.3, Truncated: true, NextValue: 0.4},
	}
	_, err := b.AddEpisode(0, 0, true, t0)
	require.NoError(t, err)
	_, err = b.AddEpisode(1, 1, false, t1)
	require.NoError(t, err)

	c := &criticRecorder{returns: map[int]float64{}}
	a := mustNew(t, Config{Name: "ppo", Gamma: 0.9, Lambda: 0.5, Epochs: 2}, Deps{Critic: c})
	m, err := a.Update(&b, &recorder{}, rand.New(rand.NewPCG(1, 1)))
	require.NoError(t, err)

	d1 := 1 - 0.6             // terminated: no bootstrap (NextValue 9 ignored)
	d0 := 0 + 0.9*0.6 - 0.5   // next state's value
	a0 := d0 + 0.9*0.5*d1     // γλ A_1
	a2 := 0.2 + 0.9*0.4 - 0.3 // truncated: bootstrap
	want := []float64{a0, d1, a2}
	assert.InDeltaSlice(t, want, advantages(&b), 1e-12)
	// Critic targets are A + V.
	assert.InDelta(t, a0+0.5, c.returns[0], 1e-12)
	assert.InDelta(t, d1+0.6, c.returns[1], 1e-12)
	assert.InDelta(t, a2+0.3, c.returns[10], 1e-12)
	assert.Equal(t, 2, c.calls, "one critic step per epoch with the whole batch")
	assert.InDelta(t, 0.5, m["losses/value_loss"], 1e-12)

	// Explained variance from the stored values: residuals are the advantages.
	ret := []float64{a0 + 0.5, d1 + 0.6, a2 + 0.3}
	_, sr := meanStd(ret)
	_, se := meanStd(want)
	assert.InDelta(t, 1-(se*se)/(sr*sr), m["losses/explained_variance"], 1e-12)
}

func TestPPOWhitening(t *testing.T) {
	var b buffer.Buffer
	for e := 0; e < 6; e++ {
		_, err := b.AddEpisode(e, 0, false, []buffer.Transition{{Prompt: []int{e, 0}, Response: []int{1}, LogProbs: []float32{0}, Reward: float64(e), Terminated: true}})
		require.NoError(t, err)
	}
	a := mustNew(t, Config{Name: "ppo", Gamma: 0.9, Lambda: 0.95, Whiten: true}, Deps{Critic: &criticRecorder{returns: map[int]float64{}}})
	_, err := a.Update(&b, &recorder{}, rand.New(rand.NewPCG(1, 1)))
	require.NoError(t, err)
	mean, std := meanStd(advantages(&b))
	assert.InDelta(t, 0, mean, 1e-9)
	assert.InDelta(t, 1, std, 1e-6)
}
