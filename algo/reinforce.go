package algo

import (
	"math/rand/v2"

	"github.com/gemgo/gemgo/buffer"
)

// REINFORCE is Williams' (1992) policy gradient at the turn level, with
// the discounted return as the advantage of every turn:
//
//	A_t = G_t = r_t + γ·G_{t+1}
//
// No baseline: the paper's vanilla REINFORCE, against which ReBN is
// compared. The shared update applies the clipped surrogate over the
// response tokens (with one epoch and ratios of 1 it is the plain policy
// gradient).
//
// It reads algo.gamma (γ) and the update's settings from its Config.
type REINFORCE struct {
	cfg  Config
	deps Deps
}

var _ Algorithm = (*REINFORCE)(nil)

// Name is "reinforce".
func (a *REINFORCE) Name() string { return "reinforce" }

// Update fills A_t = G_t and optimises l.
func (a *REINFORCE) Update(b *buffer.Buffer, l Learner, rng *rand.Rand) (Metrics, error) {
	// 1. advantages: the discounted return of each turn
	episodeReturns(b, a.cfg.Gamma)
	for i := range b.Transitions {
		b.Transitions[i].Advantage = b.Transitions[i].Return
	}
	// 2. surrogate loss and optimizer steps
	m, err := optimize(l, b, a.cfg, a.deps, rng)
	if err != nil {
		return nil, err
	}
	// 3. stats
	episodeMetrics(b, m)
	advantageMetrics(b, m)
	return m, nil
}
