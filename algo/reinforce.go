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
type REINFORCE struct {
	Gamma float64      // discount factor over turns, [0, 1]
	Opt   UpdateConfig // how the policy is optimised
}

var _ Algorithm = (*REINFORCE)(nil)

// DefaultREINFORCE returns REINFORCE with γ = 0.9 and one epoch.
func DefaultREINFORCE() *REINFORCE { return &REINFORCE{Gamma: 0.9, Opt: UpdateConfig{Epochs: 1}} }

// Name is "reinforce".
func (a *REINFORCE) Name() string { return "reinforce" }

// Validate checks the config, naming the field and the allowed range.
func (a *REINFORCE) Validate() error {
	if err := checkGamma("algo.gamma", a.Gamma); err != nil {
		return err
	}
	return a.Opt.Validate()
}

// Update fills A_t = G_t and optimises l.
func (a *REINFORCE) Update(b *buffer.Buffer, l Learner, rng *rand.Rand) (Metrics, error) {
	// 1. advantages: the discounted return of each turn
	episodeReturns(b, a.Gamma)
	for i := range b.Transitions {
		b.Transitions[i].Advantage = b.Transitions[i].Return
	}
	// 2. surrogate loss and optimizer steps
	m, err := optimize(l, b, a.Opt, rng)
	if err != nil {
		return nil, err
	}
	// 3. stats
	episodeMetrics(b, m)
	advantageMetrics(b, m)
	return m, nil
}
