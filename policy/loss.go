package policy

import (
	"errors"
	"fmt"
	"math"

	"gorgonia.org/tensor"
)

// Token is one response token as an Objective sees it: what the policy
// computed at the token (its log-prob and the entropy at its position,
// both of the tempered softmax) and the per-token data of its Sequence.
type Token struct {
	LogProb    float64 // log π(token | context) of softmax(logits / temperature)
	Entropy    float64 // entropy of that softmax at the token's position
	Advantage  float64 // the turn's Advantages; 1 without any
	OldLogProb float64 // the turn's OldLogProbs (the sampling policy's); NaN without any
	RefLogProb float64 // the turn's RefLogProbs (a reference policy's); NaN without any
	TurnLen    int     // response tokens of the token's turn
}

// TokenLoss is one token's term of the loss a Trainer minimises,
// Σ Weight·Loss over the response tokens of a batch, and the derivatives of
// Loss with respect to the token's log-prob and entropy, from which the
// trainer's kernel computes the gradient with respect to the logits.
type TokenLoss struct {
	Weight   float64 // the token's weight in the sum (the loss's aggregation)
	Loss     float64 // the token's loss
	DLogProb float64 // ∂Loss/∂LogProb
	DEntropy float64 // ∂Loss/∂Entropy
}

// Objective is the loss Trainer.Step minimises, one response token at a
// time; package algo writes the RL objectives. Token must depend only on
// its argument: the trainer calls it once per response token in the
// forward pass of each graph run, in no promised order.
type Objective interface {
	Token(t Token) TokenLoss
}

// nll is the supervised objective of SupervisedStep: the mean negative
// log-likelihood of the response tokens, weight 1/tokens each.
type nll struct{ w float64 }

func (o nll) Token(t Token) TokenLoss {
	return TokenLoss{Weight: o.w, Loss: -t.Advantage * t.LogProb, DLogProb: -t.Advantage}
}

// policyLossK is the loss head: the log-softmax of the logits (n×vocab)
// over the temperature, the log-prob of each row's target and the entropy
// of the row's distribution; the Objective turns those into the loss
// Σ Weight·Loss, and backward carries its derivatives with respect to the
// log-prob and the entropy into the logits. Rows with target −1 carry no
// loss (prompt and padding).
type policyLossK[T Float] struct {
	n, vocab int
	temp     float64   // the softmax temperature (> 0)
	obj      Objective // nil: log-probs and entropies only (Evaluate)
	target   []int     // per row, −1: no loss
	tok      []Token   // per row: the token's data; forward fills LogProb and Entropy
	// saved by forward
	lp     []T         // log softmax, n×vocab
	terms  []TokenLoss // the objective's answer per row
	scaled []T         // one row of logits / temperature (temperature ≠ 1)
}

func newPolicyLossK[T Float](n, vocab int) *policyLossK[T] {
	return &policyLossK[T]{n: n, vocab: vocab, temp: 1, target: make([]int, n), tok: make([]Token, n),
		lp: make([]T, n*vocab), terms: make([]TokenLoss, n)}
}

func (k *policyLossK[T]) String() string         { return fmt.Sprintf("policyloss(%d,%d)", k.n, k.vocab) }
func (k *policyLossK[T]) outShape() tensor.Shape { return tensor.Shape{} }
func (k *policyLossK[T]) diffWRT(n int) []bool   { return []bool{true} }

func (k *policyLossK[T]) forward(out []T, in [][]T) {
	z, V := in[0], k.vocab
	inv := T(1 / k.temp)
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
		k.tok[i].LogProb, k.tok[i].Entropy = float64(lp[t]), h
		if k.obj == nil {
			continue
		}
		tl := k.obj.Token(k.tok[i])
		k.terms[i] = tl
		total += tl.Weight * tl.Loss
	}
	out[0] = T(total)
}

// backward writes ∂loss/∂z for the target rows: with p = softmax(z/T) and
// s the token's weight times the incoming gradient over T,
//
//	∂logp_t/∂(z_j/T) = 1[j = t] − p_j
//	∂H/∂(z_j/T)      = −p_j·(log p_j + H)
func (k *policyLossK[T]) backward(dIn [][]T, dOut, _ []T, _ [][]T) {
	dz, V, g := dIn[0], k.vocab, float64(dOut[0])/k.temp
	for i, t := range k.target {
		if t < 0 {
			continue // the head reads the gradient of target rows only
		}
		lp, d := k.lp[i*V:(i+1)*V], dz[i*V:(i+1)*V]
		tl := k.terms[i]
		s := g * tl.Weight
		dl, dh, h := tl.DLogProb*s, -s*tl.DEntropy, k.tok[i].Entropy
		copy(d, lp)
		expSlice(d) // the probabilities, in d's place
		for j, l := range lp {
			p := float64(d[j])
			d[j] = T(-dl*p + dh*p*(float64(l)+h))
		}
		d[t] += T(dl)
	}
}

// LossHead evaluates the trainer's loss head in float64 on explicit logits
// (len(toks) rows of vocab values, row-major): row i predicts target
// targets[i] (−1: no loss) with the per-token data toks[i], at softmax
// temperature temp (0 means 1). It returns the loss Σ Weight·Loss and its
// gradient with respect to the logits: what Trainer.Step computes above
// the output projection, for finite-difference checks of an Objective.
func LossHead(logits []float64, targets []int, toks []Token, temp float64, obj Objective) (loss float64, grad []float64, err error) {
	n := len(targets)
	switch {
	case n == 0 || len(toks) != n || len(logits)%n != 0:
		return 0, nil, fmt.Errorf("loss head: %d logits, %d targets and %d tokens do not make rows", len(logits), n, len(toks))
	case obj == nil:
		return 0, nil, errors.New("loss head: no objective")
	case CheckTemperature(temp) != nil:
		return 0, nil, fmt.Errorf("loss head: temperature %w", CheckTemperature(temp))
	}
	if temp == 0 {
		temp = 1
	}
	V := len(logits) / n
	k := newPolicyLossK[float64](n, V)
	k.temp, k.obj = temp, obj
	copy(k.target, targets)
	copy(k.tok, toks)
	for _, t := range targets {
		if t >= V {
			return 0, nil, fmt.Errorf("loss head: target %d outside the %d logits of a row", t, V)
		}
	}
	var out [1]float64
	k.forward(out[:], [][]float64{logits})
	grad = make([]float64, len(logits))
	k.backward([][]float64{grad}, []float64{1}, nil, nil)
	return out[0], grad, nil
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
