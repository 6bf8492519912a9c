package policy

import (
	"fmt"
	"math"

	"gorgonia.org/tensor"
)

// Aggregation says how the per-token losses of a minibatch are combined
// into one scalar. Every choice weights token i of sequence s by w_s,i and
// sums; the weights are:
type Aggregation string

const (
	// TokenMean (the default): every response token in the minibatch counts
	// the same, w = 1 / (response tokens in the minibatch). Long responses
	// weigh more than short ones.
	TokenMean Aggregation = "token-mean"
	// SeqMeanTokenSum: sum over a sequence's tokens, mean over sequences,
	// w = 1 / (sequences). A sequence's weight grows with its length.
	SeqMeanTokenSum Aggregation = "seq-mean-token-sum"
	// SeqMeanTokenMean: mean over a sequence's tokens, then mean over
	// sequences, w = 1 / (sequences · that sequence's response tokens).
	// Every sequence weighs the same whatever its length.
	SeqMeanTokenMean Aggregation = "seq-mean-token-mean"
	// SeqMeanTokenSumNorm (Dr. GRPO): sum over tokens divided by sequences
	// times a constant length, w = 1 / (sequences · LossConfig.NormLen); with
	// NormLen 0 the model's context length. The PyTorch reference's loss
	// (scripts/torchref) is this with Kind PG and NormLen = its 32 positions.
	SeqMeanTokenSumNorm Aggregation = "seq-mean-token-sum-norm"
)

// LossKind selects the per-token policy term.
type LossKind string

const (
	// Clip (the default) is PPO's clipped surrogate −min(ρ·A, clip(ρ, 1−ε, 1+ε)·A)
	// with ρ = exp(logp − old logp).
	Clip LossKind = "clip"
	// PG is the plain policy gradient −A·logp (REINFORCE, and with A = 1 the
	// negative log-likelihood). OldLogProbs are then only used for statistics.
	PG LossKind = "pg"
)

// LossConfig configures Trainer.Step's loss. Per response token i the loss
// is policy_i − EntropyCoef·H_i + KLCoef·k3_i, where H_i is the entropy of
// the full softmax at that position and k3_i = exp(r) − r − 1 with
// r = ref logp − logp (the k3 estimator of KL(π‖π_ref); only when the
// sequences carry RefLogProbs). Tokens are combined by Agg.
//
// The policy trained is softmax(logits / Temperature): the distribution a
// sampler at that temperature draws from, so OldLogProbs and RefLogProbs
// must be taken at the same temperature (Sampler at SampleConfig's,
// Trainer.Evaluate with the same argument), as verl does. A trainer gets
// it from sample.temperature, never from the loss section.
type LossConfig struct {
	Kind        LossKind    `yaml:"kind"`         // "clip" or "pg"; "" means Clip
	ClipEps     float64     `yaml:"clip_eps"`     // ε of the clipped surrogate; 0 means 0.2
	EntropyCoef float64     `yaml:"entropy_coef"` // weight of the entropy bonus (≥ 0)
	KLCoef      float64     `yaml:"kl_coef"`      // weight of the KL penalty (≥ 0)
	Agg         Aggregation `yaml:"agg"`          // "" means TokenMean
	NormLen     int         `yaml:"norm_len"`     // SeqMeanTokenSumNorm's constant length; 0 means Config.Context
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
	if lc.Temperature == 0 {
		lc.Temperature = 1
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
	case checkTemperature(lc.Temperature) != nil:
		return fmt.Errorf("sample.temperature = %w", checkTemperature(lc.Temperature))
	}
	switch lc.Agg {
	case TokenMean, SeqMeanTokenSum, SeqMeanTokenMean, SeqMeanTokenSumNorm:
		return nil
	}
	return fmt.Errorf("loss.agg = %q: allowed %q, %q, %q, %q", lc.Agg, TokenMean, SeqMeanTokenSum, SeqMeanTokenMean, SeqMeanTokenSumNorm)
}

// policyLossK is the fused loss head: log-softmax of the logits (n×vocab)
// over the temperature, the log-prob of each row's target, the entropy of
// the row's distribution and the weighted per-token loss, summed into a
// scalar. Rows with target −1 carry no loss (prompt and padding).
type policyLossK[T Float] struct {
	n, vocab int
	lc       LossConfig
	hasRef   bool      // some row has a reference log-prob
	target   []int     // per row, −1: no loss
	w        []float64 // aggregation weight per row
	adv      []float64
	old      []float64 // NaN: none (allowed for PG)
	ref      []float64 // NaN: no reference for this row
	// saved by forward
	lp     []T       // log softmax, n×vocab
	logp   []float64 // log-prob of the target
	ent    []float64 // entropy
	pgTerm []float64 // the policy term per row
	dLogp  []float64 // ∂loss_i/∂logp_i per row (policy and KL terms)
	scaled []T       // one row of logits / temperature (temperature ≠ 1)
}

func newPolicyLossK[T Float](n, vocab int) *policyLossK[T] {
	return &policyLossK[T]{n: n, vocab: vocab,
		target: make([]int, n), w: make([]float64, n), adv: make([]float64, n), old: make([]float64, n), ref: make([]float64, n),
		lp: make([]T, n*vocab), logp: make([]float64, n), ent: make([]float64, n), pgTerm: make([]float64, n), dLogp: make([]float64, n)}
}

func (k *policyLossK[T]) String() string         { return fmt.Sprintf("policyloss(%d,%d)", k.n, k.vocab) }
func (k *policyLossK[T]) outShape() tensor.Shape { return tensor.Shape{} }
func (k *policyLossK[T]) diffWRT(n int) []bool   { return []bool{true} }

// tokenLoss returns the loss of one token with log-prob lp and entropy h,
// the policy term, and ∂loss/∂lp (without the entropy term).
func (k *policyLossK[T]) tokenLoss(i int, lp, h float64) (loss, pg, dlp float64) {
	a := k.adv[i]
	switch k.lc.Kind {
	case PG:
		pg, dlp = -a*lp, -a
	default:
		rho := math.Exp(lp - k.old[i])
		eps := k.lc.ClipEps
		s1 := rho * a
		s2 := math.Min(math.Max(rho, 1-eps), 1+eps) * a
		if s1 <= s2 {
			pg, dlp = -s1, -s1
		} else {
			pg, dlp = -s2, 0
		}
	}
	loss = pg - k.lc.EntropyCoef*h
	if k.lc.KLCoef != 0 && !math.IsNaN(k.ref[i]) {
		r := k.ref[i] - lp
		er := math.Exp(r)
		loss += k.lc.KLCoef * (er - r - 1)
		dlp += k.lc.KLCoef * (1 - er)
	}
	return loss, pg, dlp
}

func (k *policyLossK[T]) forward(out []T, in [][]T) {
	z, V := in[0], k.vocab
	inv := T(1 / k.lc.Temperature)
	if inv != 1 && len(k.scaled) < V {
		k.scaled = make([]T, V)
	}
	var total float64
	for i, t := range k.target {
		if t < 0 {
			continue
		}
		lp, zi := k.lp[i*V:(i+1)*V], z[i*V:(i+1)*V]
		if inv != 1 {
			for j, v := range zi {
				k.scaled[j] = v * inv
			}
			zi = k.scaled[:V]
		}
		h := float64(logSoftmaxRow(lp, zi))
		k.logp[i], k.ent[i] = float64(lp[t]), h
		loss, pg, dlp := k.tokenLoss(i, float64(lp[t]), h)
		k.pgTerm[i], k.dLogp[i] = pg, dlp
		total += k.w[i] * loss
	}
	out[0] = T(total)
}

func (k *policyLossK[T]) backward(dIn [][]T, dOut, _ []T, _ [][]T) {
	// the gradient with respect to logits / temperature, times 1/temperature
	dz, V, g := dIn[0], k.vocab, float64(dOut[0])/k.lc.Temperature
	ce := k.lc.EntropyCoef
	for i, t := range k.target {
		if t < 0 {
			continue // the head reads the gradient of target rows only
		}
		lp, d := k.lp[i*V:(i+1)*V], dz[i*V:(i+1)*V]
		s := g * k.w[i]
		dl, h := k.dLogp[i]*s, k.ent[i]
		copy(d, lp)
		expSlice(d) // the probabilities, in d's place
		for j, l := range lp {
			p := float64(d[j])
			d[j] = T(-dl*p + s*ce*p*(float64(l)+h))
		}
		d[t] += T(dl)
	}
}

// valueLossK is the critic's loss: values v (n×1), read at one row per
// sequence; 0.5·mean over sequences of (V − R)², or with clip > 0 the
// clipped form 0.5·max((V − R)², (V_old + clamp(V − V_old, ±clip) − R)²).
type valueLossK[T Float] struct {
	n       int
	rows    []int // the row read for each sequence
	returns []float64
	old     []float64
	clip    float64
	values  []float64 // saved: V per sequence
	clipped []bool    // saved: the clipped branch was taken
}

func (k *valueLossK[T]) String() string         { return fmt.Sprintf("valueloss(%d,%d)", k.n, len(k.rows)) }
func (k *valueLossK[T]) outShape() tensor.Shape { return tensor.Shape{} }
func (k *valueLossK[T]) diffWRT(n int) []bool   { return []bool{true} }

func (k *valueLossK[T]) forward(out []T, in [][]T) {
	v := in[0]
	m := float64(len(k.rows))
	k.values, k.clipped = k.values[:0], k.clipped[:0]
	var total float64
	for s, r := range k.rows {
		x := float64(v[r])
		d := x - k.returns[s]
		l, clipped := d*d, false
		if k.clip > 0 {
			vc := k.old[s] + math.Min(math.Max(x-k.old[s], -k.clip), k.clip)
			if dc := vc - k.returns[s]; dc*dc > l {
				l, clipped = dc*dc, true
			}
		}
		k.values = append(k.values, x)
		k.clipped = append(k.clipped, clipped)
		total += 0.5 * l / m
	}
	out[0] = T(total)
}

func (k *valueLossK[T]) backward(dIn [][]T, dOut, _ []T, _ [][]T) {
	g, m := float64(dOut[0]), float64(len(k.rows))
	clear(dIn[0])
	for s, r := range k.rows {
		if k.clipped[s] {
			// the clipped value is constant in V outside the clip range,
			// and equal to V inside it
			vc := k.old[s] + math.Min(math.Max(k.values[s]-k.old[s], -k.clip), k.clip)
			if math.Abs(k.values[s]-k.old[s]) < k.clip {
				dIn[0][r] += T(g * (vc - k.returns[s]) / m)
			}
			continue
		}
		dIn[0][r] += T(g * (k.values[s] - k.returns[s]) / m)
	}
}
