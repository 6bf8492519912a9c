package algo

import (
	"math/rand/v2"

	"github.com/gemgo/gemgo/buffer"
)

// ReBN is REINFORCE with Return Batch Normalization (GEM, arXiv
// 2510.01051, §3): the discounted return of every turn, normalised over all
// transitions of the batch,
//
//	A_t = (G_t − mean(G)) / (std(G) + ε)
//
// with the population std and ε = 1e-9 as in the paper's code. It keeps
// REINFORCE's dense per-turn credit (any γ) and gains a baseline and a
// scale from the batch, without a critic.
//
// It reads algo.gamma (γ), algo.epsilon (ε; 0 means 1e-9) and the update's
// settings from its Config.
type ReBN struct {
	cfg  Config
	deps Deps
}

var _ Algorithm = (*ReBN)(nil)

// Name is "rebn".
func (a *ReBN) Name() string { return "rebn" }

// Update fills the batch-normalised returns and optimises l.
func (a *ReBN) Update(b *buffer.Buffer, l Learner, rng *rand.Rand) (Metrics, error) {
	eps := a.cfg.Epsilon
	if eps == 0 {
		eps = 1e-9
	}
	// 1. advantages: discounted returns per episode
	episodeReturns(b, a.cfg.Gamma)
	g := make([]float64, b.Len())
	for i := range b.Transitions {
		g[i] = b.Transitions[i].Return
	}
	// 2. normalize over the whole batch
	for i, v := range BatchNormalize(g, eps) {
		b.Transitions[i].Advantage = v
	}
	// 3. surrogate loss and optimizer steps
	m, err := optimize(l, b, a.cfg, a.deps, rng)
	if err != nil {
		return nil, err
	}
	// 4. stats
	mean, std := meanStd(g)
	m["charts/return_mean"] = mean
	m["charts/return_std"] = std
	episodeMetrics(b, m)
	advantageMetrics(b, m)
	return m, nil
}
