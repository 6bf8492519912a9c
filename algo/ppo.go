package algo

import (
	"fmt"
	"math/rand/v2"

	"github.com/gemgo/gemgo/buffer"
	"github.com/gemgo/gemgo/policy"
)

// ValueLearner is the critic PPO trains; *policy.Critic implements it.
type ValueLearner interface {
	Step(prompts [][]int, returns, oldValues []float64, clip float64) (policy.ValueStats, error)
}

// PPO is Proximal Policy Optimization (Schulman et al. 2017) at the turn
// level: a learned critic V(s_t), read at the last prompt token, and
// generalized advantage estimation over the turns of each episode,
//
//	δ_t = r_t + γ·V(s_{t+1})·(1 − terminated_t) − V(s_t)
//	A_t = δ_t + γλ·A_{t+1}
//
// bootstrapping from V of the final observation when an episode is
// truncated (the turn limit), never when it terminates. The values are the
// critic's at sampling time (stored by the collector). The critic is then
// fitted to the returns A_t + V(s_t) with the (optionally clipped) value
// loss, over the same epochs and minibatches as the policy.
//
// It reads algo.gamma (γ), algo.lambda (λ), algo.whiten, algo.value_clip
// and the update's settings from its Config, and trains Deps.Critic.
type PPO struct {
	cfg  Config
	deps Deps
}

var _ Algorithm = (*PPO)(nil)

// Name is "ppo".
func (a *PPO) Name() string { return "ppo" }

// Update computes GAE advantages, optimises the policy, then the critic.
func (a *PPO) Update(b *buffer.Buffer, l Learner, rng *rand.Rand) (Metrics, error) {
	c, critic := a.cfg, a.deps.Critic
	if critic == nil {
		return nil, fmt.Errorf("ppo: no critic")
	}
	// 1. advantages: GAE over the turns of each episode
	for _, e := range b.Episodes {
		turns := b.Turns(e)
		n := len(turns)
		r, v, next := make([]float64, n), make([]float64, n), make([]float64, n)
		term := make([]bool, n)
		for t, tr := range turns {
			r[t], v[t], term[t] = tr.Reward, tr.Value, tr.Terminated
			if t+1 < n {
				next[t] = turns[t+1].Value
			} else {
				next[t] = tr.NextValue // used only when truncated
			}
		}
		adv, ret := GAE(r, v, next, term, c.Gamma, c.Lambda)
		for t := range turns {
			turns[t].Advantage, turns[t].Return = adv[t], ret[t]
		}
	}
	// 2. normalize (optional whitening)
	if c.Whiten {
		x := make([]float64, b.Len())
		for i := range b.Transitions {
			x[i] = b.Transitions[i].Advantage
		}
		for i, v := range BatchNormalize(x, 1e-8) {
			b.Transitions[i].Advantage = v
		}
	}
	// 3. clipped surrogate and policy optimizer steps
	m, err := optimize(l, b, c, a.deps, rng)
	if err != nil {
		return nil, err
	}
	// 4. critic: value loss over the same epochs and minibatch size
	size := c.MinibatchSize
	if size == 0 {
		size = b.Len()
	}
	var vloss, vclip float64
	steps := 0
	for epoch := 0; epoch < max(c.Epochs, 1); epoch++ {
		for _, mb := range b.Minibatches(size, rng) {
			prompts := make([][]int, len(mb))
			returns := make([]float64, len(mb))
			old := make([]float64, len(mb))
			for j, i := range mb {
				tr := &b.Transitions[i]
				prompts[j], returns[j], old[j] = tr.Prompt, tr.Return, tr.Value
			}
			vs, err := critic.Step(prompts, returns, old, c.ValueClip)
			if err != nil {
				return nil, fmt.Errorf("ppo: critic epoch %d: %w", epoch, err)
			}
			vloss += vs.Loss
			vclip += vs.ClipFrac
			steps++
		}
	}
	// 5. stats
	m["losses/value_loss"] = vloss / float64(steps)
	m["losses/value_clipfrac"] = vclip / float64(steps)
	m["losses/explained_variance"] = explainedVariance(b)
	episodeMetrics(b, m)
	advantageMetrics(b, m)
	return m, nil
}

// explainedVariance is 1 − Var(R − V)/Var(R) over the batch, with the
// values the critic gave at sampling time: 1 is a perfect critic, 0 one
// no better than a constant, and it is 0 when the returns do not vary.
func explainedVariance(b *buffer.Buffer) float64 {
	ret := make([]float64, b.Len())
	res := make([]float64, b.Len())
	for i, tr := range b.Transitions {
		ret[i] = tr.Return
		res[i] = tr.Return - tr.Value
	}
	_, sr := meanStd(ret)
	_, se := meanStd(res)
	if sr == 0 {
		return 0
	}
	return 1 - (se*se)/(sr*sr)
}
