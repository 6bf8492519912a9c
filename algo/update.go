package algo

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/gemgo/gemgo/buffer"
	"github.com/gemgo/gemgo/policy"
)

// Algorithm turns a buffer of finished episodes into policy updates.
type Algorithm interface {
	// Name is the algorithm's config name ("reinforce", "rebn", ...).
	Name() string
	// Update fills the advantages of b's transitions and optimises l on
	// them. It returns the iteration's metrics (CleanRL names).
	Update(b *buffer.Buffer, l Learner, rng *rand.Rand) (Metrics, error)
}

// Learner is the policy optimiser the algorithms drive; *policy.Trainer
// implements it.
type Learner interface {
	Step(batch []policy.Sequence, lc policy.LossConfig) (policy.Stats, error)
}

// Reference gives a frozen policy's log-probs at a temperature (the loss's,
// so that the KL compares the same tempered policies), for the KL penalty;
// *policy.Trainer implements it.
type Reference interface {
	Evaluate(batch []policy.Sequence, temp float64) (logp, entropy [][]float32, err error)
}

// Metrics maps CleanRL-style names ("losses/policy_loss",
// "charts/episodic_return", ...) to values.
type Metrics map[string]float64

// UpdateConfig is what every algorithm shares: how the policy is optimised
// once the advantages are known.
type UpdateConfig struct {
	Epochs        int               // passes over the buffer per iteration; 0 means 1
	MinibatchSize int               // transitions per optimizer step; 0 means the whole buffer
	Loss          policy.LossConfig // clipped surrogate, entropy bonus, KL penalty, aggregation
	Reference     Reference         // frozen policy for the KL penalty; nil: no penalty
	Pack          bool              // train each episode's history-sharing turns as one packed sequence
	PackRows      int               // the longest packed sequence (policy.MaxPackedLen); 0: no limit
}

// Validate checks uc, naming the field and the allowed range.
func (uc UpdateConfig) Validate() error {
	if uc.Epochs < 0 || uc.Epochs > 100 {
		return fmt.Errorf("algo.epochs = %d: allowed [0, 100] (0 means 1)", uc.Epochs)
	}
	if uc.MinibatchSize < 0 {
		return fmt.Errorf("algo.minibatch_size = %d: must be ≥ 0 (0 means the whole buffer)", uc.MinibatchSize)
	}
	if uc.Loss.KLCoef > 0 && uc.Reference == nil {
		return fmt.Errorf("loss.kl_coef = %v needs a reference policy (set it to 0, or give a reference)", uc.Loss.KLCoef)
	}
	return uc.Loss.Validate()
}

// sequences turns transitions into training sequences, each response
// token carrying its transition's advantage.
func sequences(b *buffer.Buffer, idx []int) []policy.Sequence {
	out := make([]policy.Sequence, len(idx))
	for j, i := range idx {
		tr := &b.Transitions[i]
		adv := make([]float32, len(tr.Response))
		for k := range adv {
			adv[k] = float32(tr.Advantage)
		}
		out[j] = policy.Sequence{Prompt: tr.Prompt, Response: tr.Response, Advantages: adv, OldLogProbs: tr.LogProbs}
	}
	return out
}

// optimize runs uc.Epochs passes of shuffled, length-bucketed minibatches
// over b and returns the mean loss statistics.
func optimize(l Learner, b *buffer.Buffer, uc UpdateConfig, rng *rand.Rand) (Metrics, error) {
	m := Metrics{}
	if b.Len() == 0 {
		return m, fmt.Errorf("algo: empty buffer: collect episodes before updating")
	}
	size := uc.MinibatchSize
	if size == 0 {
		size = b.Len()
	}
	// training units: one transition each, or with algo.pack an episode's
	// turns that share their history (packUnits); nothing sharing a prompt
	// leaves one a transition, so the minibatches are the unpacked ones
	units := b.SingleUnits()
	if uc.Pack {
		if packed := packUnits(b, uc.PackRows); len(packed) < b.Len() {
			units = packed
		}
	}
	var ref [][]float32
	if uc.Reference != nil && uc.Loss.KLCoef > 0 {
		t0 := time.Now()
		all := make([]policy.Sequence, len(units))
		for u, unit := range units {
			all[u] = packedSequence(b, unit, nil)
		}
		packed, _, err := uc.Reference.Evaluate(all, uc.Loss.Temperature)
		if err != nil {
			return m, fmt.Errorf("algo: reference log-probs: %w", err)
		}
		ref = unpack(units, packed, b)
		m["perf/reference_s"] = time.Since(t0).Seconds()
	}
	tokens := 0
	var sum policy.Stats
	steps := 0
	for epoch := 0; epoch < max(uc.Epochs, 1); epoch++ {
		for _, mb := range b.UnitMinibatches(units, size, rng) {
			batch := make([]policy.Sequence, len(mb))
			for j, unit := range mb {
				batch[j] = packedSequence(b, unit, ref)
			}
			for _, sq := range batch {
				tokens += len(sq.Prompt) + len(sq.Response)
				for _, br := range sq.Branches {
					tokens += len(br.Tail) + len(br.Response)
				}
			}
			st, err := l.Step(batch, uc.Loss)
			if err != nil {
				return m, fmt.Errorf("algo: epoch %d: %w", epoch, err)
			}
			if math.IsNaN(st.Loss) || math.IsInf(st.Loss, 0) {
				return m, fmt.Errorf("algo: epoch %d: loss is %v: lower the learning rate or raise optim.max_grad_norm clipping", epoch, st.Loss)
			}
			sum.Loss += st.Loss
			sum.PolicyLoss += st.PolicyLoss
			sum.Entropy += st.Entropy
			sum.ApproxKL += st.ApproxKL
			sum.ClipFrac += st.ClipFrac
			sum.KL += st.KL
			sum.GradNorm += st.GradNorm
			sum.LR = st.LR
			steps++
		}
	}
	n := float64(steps)
	m["losses/loss"] = sum.Loss / n
	m["losses/policy_loss"] = sum.PolicyLoss / n
	m["losses/entropy"] = sum.Entropy / n
	m["losses/approx_kl"] = sum.ApproxKL / n
	m["losses/clipfrac"] = sum.ClipFrac / n
	m["losses/kl"] = sum.KL / n
	m["losses/grad_norm"] = sum.GradNorm / n
	m["charts/learning_rate"] = sum.LR
	m["losses/optimizer_steps"] = n
	m["perf/trained_tokens"] = float64(tokens)
	return m, nil
}

// episodeMetrics summarises the episodes of b.
func episodeMetrics(b *buffer.Buffer, m Metrics) {
	s := b.Stats()
	m["charts/episodic_return"] = s.MeanReturn
	m["charts/success_rate"] = s.SuccessRate
	m["charts/turns"] = s.MeanTurns
	m["charts/episodes"] = float64(s.Episodes)
	m["charts/transitions"] = float64(s.Transitions)
}

// advantageMetrics records the mean and std of the advantages.
func advantageMetrics(b *buffer.Buffer, m Metrics) {
	x := make([]float64, b.Len())
	for i := range b.Transitions {
		x[i] = b.Transitions[i].Advantage
	}
	mean, std := meanStd(x)
	m["charts/advantage_mean"] = mean
	m["charts/advantage_std"] = std
}

// episodeReturns computes every transition's discounted return G_t within
// its episode and stores it in Return.
func episodeReturns(b *buffer.Buffer, gamma float64) {
	for _, e := range b.Episodes {
		turns := b.Turns(e)
		r := make([]float64, len(turns))
		for i := range turns {
			r[i] = turns[i].Reward
		}
		for i, g := range DiscountedReturns(r, gamma) {
			turns[i].Return = g
		}
	}
}

func checkGamma(field string, gamma float64) error {
	if !(gamma >= 0 && gamma <= 1) {
		return fmt.Errorf("%s = %v: allowed [0, 1]", field, gamma)
	}
	return nil
}
