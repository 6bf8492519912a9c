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
// implements it. Step minimises obj over batch for the policy
// softmax(logits / temp) and returns, among its statistics, the log-prob
// of every response token it saw (Stats.LogProbs).
type Learner interface {
	Step(batch []policy.Sequence, temp float64, obj policy.Objective) (policy.Stats, error)
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

// optimize is the update every algorithm shares once the advantages are
// known: c.Epochs passes of shuffled, length-bucketed minibatches of
// c.MinibatchSize transitions over b (with c.Pack, packed episodes), each
// one optimizer step on the Loss of d.Loss (loss.go). It returns the mean
// loss statistics.
func optimize(l Learner, b *buffer.Buffer, c Config, d Deps, rng *rand.Rand) (Metrics, error) {
	m := Metrics{}
	if b.Len() == 0 {
		return m, fmt.Errorf("algo: empty buffer: collect episodes before updating")
	}
	size := c.MinibatchSize
	if size == 0 {
		size = b.Len()
	}
	// training units: one transition each, or with algo.pack an episode's
	// turns that share their history (packUnits); nothing sharing a prompt
	// leaves one a transition, so the minibatches are the unpacked ones
	units := b.SingleUnits()
	if c.Pack {
		if packed := packUnits(b, d.PackRows); len(packed) < b.Len() {
			units = packed
		}
	}
	var ref [][]float32
	if d.Reference != nil && d.Loss.KLCoef > 0 {
		t0 := time.Now()
		all := make([]policy.Sequence, len(units))
		for u, unit := range units {
			all[u] = packedSequence(b, unit, nil)
		}
		packed, _, err := d.Reference.Evaluate(all, d.Loss.Temperature)
		if err != nil {
			return m, fmt.Errorf("algo: reference log-probs: %w", err)
		}
		ref = unpack(units, packed, b)
		m["perf/reference_s"] = time.Since(t0).Seconds()
	}
	tokens := 0
	var sum policy.Stats
	var lsum LossStats
	steps := 0
	for epoch := 0; epoch < max(c.Epochs, 1); epoch++ {
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
			loss, err := NewLoss(d.Loss, batch)
			if err != nil {
				return m, fmt.Errorf("algo: epoch %d: %w", epoch, err)
			}
			st, err := l.Step(batch, d.Loss.Temperature, loss)
			if err != nil {
				return m, fmt.Errorf("algo: epoch %d: %w", epoch, err)
			}
			if math.IsNaN(st.Loss) || math.IsInf(st.Loss, 0) {
				return m, fmt.Errorf("algo: epoch %d: loss is %v: lower the learning rate or raise optim.max_grad_norm clipping", epoch, st.Loss)
			}
			if err := checkLogProbs(batch, st.LogProbs); err != nil {
				return m, fmt.Errorf("algo: epoch %d: %w", epoch, err)
			}
			ls := loss.Stats(batch, st.LogProbs)
			sum.Loss += st.Loss
			lsum.PolicyLoss += ls.PolicyLoss
			sum.Entropy += st.Entropy
			lsum.ApproxKL += ls.ApproxKL
			lsum.ClipFrac += ls.ClipFrac
			lsum.KL += ls.KL
			sum.GradNorm += st.GradNorm
			sum.LR = st.LR
			steps++
		}
	}
	n := float64(steps)
	m["losses/loss"] = sum.Loss / n
	m["losses/policy_loss"] = lsum.PolicyLoss / n
	m["losses/entropy"] = sum.Entropy / n
	m["losses/approx_kl"] = lsum.ApproxKL / n
	m["losses/clipfrac"] = lsum.ClipFrac / n
	m["losses/kl"] = lsum.KL / n
	m["losses/grad_norm"] = sum.GradNorm / n
	m["charts/learning_rate"] = sum.LR
	m["losses/optimizer_steps"] = n
	m["perf/trained_tokens"] = float64(tokens)
	return m, nil
}

// checkLogProbs checks that a learner returned one log-prob per response
// token of batch.
func checkLogProbs(batch []policy.Sequence, logp [][]float32) error {
	if len(logp) != len(batch) {
		return fmt.Errorf("the learner returned log-probs for %d of %d sequences", len(logp), len(batch))
	}
	for i := range batch {
		n := len(batch[i].Response)
		for _, br := range batch[i].Branches {
			n += len(br.Response)
		}
		if len(logp[i]) != n {
			return fmt.Errorf("the learner returned %d log-probs for the %d response tokens of sequence %d", len(logp[i]), n, i)
		}
	}
	return nil
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
