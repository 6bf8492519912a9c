package algo

import (
	"fmt"
	"math"

	"github.com/gemgo/gemgo/policy"
)

// LossKind selects the per-token policy term.
type LossKind string

const (
	// Clip (the default) is PPO's clipped surrogate
	// max(−A·ρ, −A·clip(ρ, 1−ε, 1+ε)) with ρ = exp(logp − old logp).
	Clip LossKind = "clip"
	// PG is the plain policy gradient −A·logp (REINFORCE, and with A = 1 the
	// negative log-likelihood). Old log-probs are then only used for
	// statistics.
	PG LossKind = "pg"
)

// Aggregation says how the per-token losses of a minibatch are combined
// into one scalar. Every choice weights token i of turn s by w_s,i and
// sums; the weights are:
type Aggregation string

const (
	// TokenMean (the default): every response token in the minibatch counts
	// the same, w = 1 / (response tokens in the minibatch). Long responses
	// weigh more than short ones.
	TokenMean Aggregation = "token-mean"
	// SeqMeanTokenSum: sum over a turn's tokens, mean over turns,
	// w = 1 / (turns). A turn's weight grows with its length.
	SeqMeanTokenSum Aggregation = "seq-mean-token-sum"
	// SeqMeanTokenMean: mean over a turn's tokens, then mean over turns,
	// w = 1 / (turns · that turn's response tokens). Every turn weighs the
	// same whatever its length.
	SeqMeanTokenMean Aggregation = "seq-mean-token-mean"
	// SeqMeanTokenSumNorm (Dr. GRPO): sum over tokens divided by turns
	// times a constant length, w = 1 / (turns · LossConfig.NormLen). The
	// PyTorch reference's loss (scripts/torchref) is this with Kind PG and
	// NormLen = its 32 positions.
	SeqMeanTokenSumNorm Aggregation = "seq-mean-token-sum-norm"
)

// LossConfig is the loss section of a training config: the objective the
// shared update minimises (loss.go's Loss). Per response token
//
//	loss = pg − EntropyCoef·H + KLCoef·k3
//
// where pg is the policy term of Kind, H the entropy of the full softmax
// at the token's position and k3 the KL estimate to the reference policy
// (only for tokens with reference log-probs); tokens are combined by Agg.
//
// The policy trained is softmax(logits / Temperature): the distribution a
// sampler at that temperature draws from, so old and reference log-probs
// must be taken at the same temperature, as verl does. A trainer gets it
// from sample.temperature, never from the loss section.
type LossConfig struct {
	Kind        LossKind    `yaml:"kind"`         // "clip" or "pg"; "" means Clip
	ClipEps     float64     `yaml:"clip_eps"`     // ε of the clipped surrogate; 0 means 0.2
	EntropyCoef float64     `yaml:"entropy_coef"` // weight c of the entropy bonus (≥ 0)
	KLCoef      float64     `yaml:"kl_coef"`      // weight β of the KL penalty (≥ 0)
	Agg         Aggregation `yaml:"agg"`          // "" means TokenMean
	NormLen     int         `yaml:"norm_len"`     // SeqMeanTokenSumNorm's constant length; 0 means model.context (train sets it)
	Temperature float64     `yaml:"-"`            // the trained policy's softmax temperature; 0 means 1 (set from sample.temperature)
}

func (lc LossConfig) withDefaults() LossConfig {
	if lc.Kind == "" {
		lc.Kind = Clip
	}
	if lc.ClipEps == 0 {
		lc.ClipEps = 0.2
	}
	if lc.Agg == "" {
		lc.Agg = TokenMean
	}
	return lc
}

// Validate checks lc, naming the field (by its key in a training config's
// loss section) and the allowed values.
func (lc LossConfig) Validate() error {
	lc = lc.withDefaults()
	switch {
	case lc.Kind != Clip && lc.Kind != PG:
		return fmt.Errorf("loss.kind = %q: allowed %q, %q", lc.Kind, Clip, PG)
	case !(lc.ClipEps > 0 && lc.ClipEps < 1):
		return fmt.Errorf("loss.clip_eps = %v: allowed (0, 1)", lc.ClipEps)
	case !(lc.EntropyCoef >= 0) || math.IsInf(lc.EntropyCoef, 0):
		return fmt.Errorf("loss.entropy_coef = %v: must be finite and ≥ 0", lc.EntropyCoef)
	case !(lc.KLCoef >= 0) || math.IsInf(lc.KLCoef, 0):
		return fmt.Errorf("loss.kl_coef = %v: must be finite and ≥ 0", lc.KLCoef)
	case lc.NormLen < 0:
		return fmt.Errorf("loss.norm_len = %d: must be ≥ 0", lc.NormLen)
	case policy.CheckTemperature(lc.Temperature) != nil:
		return fmt.Errorf("sample.temperature = %w", policy.CheckTemperature(lc.Temperature))
	}
	switch lc.Agg {
	case TokenMean, SeqMeanTokenSum, SeqMeanTokenMean, SeqMeanTokenSumNorm:
		return nil
	}
	return fmt.Errorf("loss.agg = %q: allowed %q, %q, %q, %q", lc.Agg, TokenMean, SeqMeanTokenSum, SeqMeanTokenMean, SeqMeanTokenSumNorm)
}

// Loss is the objective of one minibatch, the loss a policy.Trainer
// minimises: its Token method is the whole per-token loss, and the
// trainer's kernel carries the derivatives it returns into the logits.
type Loss struct {
	lc     LossConfig // with defaults
	tokens int        // response tokens of the minibatch
	turns  int        // turns of the minibatch (a packed sequence's branches count)
}

var _ policy.Objective = (*Loss)(nil)

// NewLoss returns lc's loss over batch. The clipped surrogate needs the
// sampling policy's log-prob of every response token.
func NewLoss(lc LossConfig, batch []policy.Sequence) (*Loss, error) {
	if err := lc.Validate(); err != nil {
		return nil, err
	}
	o := &Loss{lc: lc.withDefaults()}
	if o.lc.Agg == SeqMeanTokenSumNorm && o.lc.NormLen == 0 {
		return nil, fmt.Errorf("loss.agg = %s divides by loss.norm_len, which is 0: set it (a training run sets model.context)", o.lc.Agg)
	}
	for i := range batch {
		sq := &batch[i]
		o.turns += 1 + len(sq.Branches)
		o.tokens += len(sq.Response)
		needOld := len(sq.OldLogProbs) != len(sq.Response)
		for _, br := range sq.Branches {
			o.tokens += len(br.Response)
			needOld = needOld || len(br.OldLogProbs) != len(br.Response)
		}
		if o.lc.Kind == Clip && needOld {
			return nil, fmt.Errorf("sequence %d: the clipped loss (loss.kind = clip) needs one old log-prob per response token", i)
		}
	}
	return o, nil
}

// Token is the loss of one response token, CleanRL's PPO loss for a single
// token, and its derivatives with respect to the token's log-prob and the
// entropy at its position.
func (o *Loss) Token(t policy.Token) policy.TokenLoss {
	tl, _ := o.terms(t)
	return tl
}

// terms computes Token's result and the policy term pg alone.
func (o *Loss) terms(t policy.Token) (tl policy.TokenLoss, pg float64) {
	lc := o.lc
	// 1. policy term and ∂pg/∂logp
	var dpg float64
	switch lc.Kind {
	case PG:
		pg, dpg = -t.Advantage*t.LogProb, -t.Advantage
	default:
		ratio := math.Exp(t.LogProb - t.OldLogProb)
		pg1 := -t.Advantage * ratio
		pg2 := -t.Advantage * clip(ratio, 1-lc.ClipEps, 1+lc.ClipEps)
		pg, dpg = pg2, 0 // pg = max(pg1, pg2); the clipped branch is constant in logp
		if pg1 >= pg2 {
			pg, dpg = pg1, pg1 // ∂(−A·ρ)/∂logp = −A·ρ
		}
	}
	// 2. loss = pg − c·H + β·k3, the KL term where the token has a reference
	loss, dlogp := pg-lc.EntropyCoef*t.Entropy, dpg
	if lc.KLCoef != 0 && !math.IsNaN(t.RefLogProb) {
		kl, dkl := k3(t.LogProb, t.RefLogProb)
		loss += lc.KLCoef * kl
		dlogp += lc.KLCoef * dkl
	}
	// 3. aggregation: the token's weight in the minibatch's sum
	return policy.TokenLoss{Weight: o.weight(t.TurnLen), Loss: loss, DLogProb: dlogp, DEntropy: -lc.EntropyCoef}, pg
}

// clip is x clamped to [lo, hi].
func clip(x, lo, hi float64) float64 { return math.Min(math.Max(x, lo), hi) }

// k3 is Schulman's k3 estimator of KL(π‖π_ref) at one sampled token,
// e^r − r − 1 with r = ref logp − logp (unbiased, never negative), and its
// derivative with respect to logp, 1 − e^r.
func k3(logp, refLogp float64) (kl, dLogp float64) {
	r := refLogp - logp
	er := math.Exp(r)
	return er - r - 1, 1 - er
}

// weight is the aggregation weight of a token of a turn of turnLen
// response tokens (see Aggregation).
func (o *Loss) weight(turnLen int) float64 {
	switch o.lc.Agg {
	case SeqMeanTokenSum:
		return 1 / float64(o.turns)
	case SeqMeanTokenMean:
		return 1 / (float64(o.turns) * float64(turnLen))
	case SeqMeanTokenSumNorm:
		return 1 / (float64(o.turns) * float64(o.lc.NormLen))
	}
	return 1 / float64(o.tokens)
}

// LossStats are the loss's diagnostics of one step.
type LossStats struct {
	PolicyLoss float64 // Σ w·pg: the policy term as aggregated
	ApproxKL   float64 // mean (ρ−1) − log ρ over tokens with old log-probs (0 without any)
	ClipFrac   float64 // fraction of those tokens with |ρ−1| > ε
	KL         float64 // mean k3 estimate of KL(π‖π_ref) over tokens with reference log-probs
}

// Stats computes the step's diagnostics from the log-probs the trainer
// saw (policy.Stats.LogProbs), token by token in batch's order.
func (o *Loss) Stats(batch []policy.Sequence, logp [][]float32) LossStats {
	var st LossStats
	var oldTokens, refTokens int
	for i := range batch {
		for j, t := range batch[i].Tokens() {
			t.LogProb = float64(logp[i][j])
			tl, pg := o.terms(t)
			st.PolicyLoss += tl.Weight * pg
			if !math.IsNaN(t.OldLogProb) {
				oldTokens++
				lr := t.LogProb - t.OldLogProb
				st.ApproxKL += math.Expm1(lr) - lr
				if math.Abs(math.Expm1(lr)) > o.lc.ClipEps {
					st.ClipFrac++
				}
			}
			if !math.IsNaN(t.RefLogProb) {
				// k3 again, in the form accurate near r = 0
				r := t.RefLogProb - t.LogProb
				st.KL += math.Expm1(r) - r
				refTokens++
			}
		}
	}
	if oldTokens > 0 {
		st.ApproxKL /= float64(oldTokens)
		st.ClipFrac /= float64(oldTokens)
	}
	if refTokens > 0 {
		st.KL /= float64(refTokens)
	}
	return st
}
