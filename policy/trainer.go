package policy

import (
	"errors"
	"fmt"
	"slices"
)

// Stats summarises one training step. Loss is the objective's; what the
// objective's terms were (surrogate, KL, clip fraction) is its own to
// compute from LogProbs.
type Stats struct {
	Loss     float64     // the minimised loss, Σ Weight·Loss over the response tokens
	Entropy  float64     // mean entropy of the full softmax at response tokens
	GradNorm float64     // global gradient L2 norm before clipping
	LR       float64     // learning rate of this step
	Tokens   int         // response tokens in the minibatch
	LogProbs [][]float32 // per sequence, the log-prob of each response token before the update, in Sequence.Tokens order
}

// Trainer updates a policy's Weights in place with Adam. Graphs are built
// per (batch, length) bucket on first use and reused, up to a bounded
// number of them (graphCache). Not safe for concurrent use.
type Trainer struct {
	w      *Weights
	opt    *adam
	graphs graphCache[float32]
	mem    slab[float32] // the graphs' float buffers (arena.go)
	// maxGraphs bounds graphs (0: defaultMaxGraphs); tests lower it
	maxGraphs int
	// ownBuffers gives each graph buffers of its own, not the slab's
	// (tests compare the two)
	ownBuffers bool
	params     [][]float32
	acc        [][]float32 // gradient sum over the chunks of a step
	grads      [][]float32 // gradients of the last step
}

// NewTrainer returns a trainer of w (a policy from NewWeights) with
// optimizer settings oc.
func NewTrainer(w *Weights, oc OptimConfig) (*Trainer, error) {
	if w == nil {
		return nil, errors.New("new trainer: nil weights")
	}
	if err := checkLayout(w, Specs(w.Config)); err != nil {
		return nil, fmt.Errorf("new trainer: %w", err)
	}
	opt, err := newAdam(w, oc)
	if err != nil {
		return nil, fmt.Errorf("new trainer: %w", err)
	}
	return &Trainer{w: w, opt: opt}, nil
}

// checkLayout verifies that w holds exactly the parameters specs lists.
func checkLayout(w *Weights, specs []ParamSpec) error {
	if err := w.Config.Validate(); err != nil {
		return err
	}
	if len(w.Params) != len(specs) {
		return fmt.Errorf("weights hold %d parameters, the model needs %d%s", len(w.Params), len(specs), tieHint(w, specs))
	}
	for i, s := range specs {
		p := w.Params[i]
		n := 1
		for _, k := range s.Shape {
			n *= k
		}
		if p.Name != s.Name || len(p.Data) != n {
			return fmt.Errorf("parameter %d is %s with %d values, want %s %v", i, p.Name, len(p.Data), s.Name, s.Shape)
		}
	}
	return nil
}

func (t *Trainer) refreshParams() {
	t.params = t.params[:0]
	for _, p := range t.w.Params {
		t.params = append(t.params, p.Data)
	}
}

func (t *Trainer) graph(b, length int) (*graph[float32], error) {
	return t.graphs.get(b, length, t.maxGraphs, func(b, length int) (*graph[float32], error) {
		mem := &t.mem
		if t.ownBuffers {
			mem = nil
		}
		return newGraphIn(t.w, t.params, b, length, false, mem)
	})
}

// batchLen is the graph length for the longest sequence of batch.
func batchLen(batch []Sequence, context int) int {
	n := 0
	for _, s := range batch {
		n = max(n, s.inputs())
	}
	return bucketLen(n, context)
}

// Step runs forward and backward on batch (any size ≥ 1) with the loss obj
// gives per response token, the policy being softmax(logits / temp) (temp
// 0 means 1: the sampling temperature, so that the policy trained is the
// one sampled), and applies one Adam step.
func (t *Trainer) Step(batch []Sequence, temp float64, obj Objective) (Stats, error) {
	if err := CheckTemperature(temp); err != nil {
		return Stats{}, fmt.Errorf("train step: sample.temperature = %w", err)
	}
	if obj == nil {
		return Stats{}, errors.New("train step: no objective")
	}
	if temp == 0 {
		temp = 1
	}
	return t.step(batch, temp, obj, true)
}

// SupervisedStep minimises the mean cross-entropy of the response tokens
// (the format warm-up).
func (t *Trainer) SupervisedStep(batch []Sequence) (Stats, error) {
	sup := make([]Sequence, len(batch))
	tokens := 0
	for i, s := range batch {
		sup[i] = Sequence{Prompt: s.Prompt, Response: s.Response}
		tokens += len(s.Response)
	}
	return t.step(sup, 1, nll{w: 1 / float64(tokens)}, true)
}

func (t *Trainer) step(batch []Sequence, temp float64, obj Objective, update bool) (Stats, error) {
	if len(batch) == 0 {
		return Stats{}, errors.New("train step: empty batch")
	}
	for i := range batch {
		if err := checkSequence(i, &batch[i], t.w.Config); err != nil {
			return Stats{}, fmt.Errorf("train step: %w", err)
		}
	}
	t.refreshParams()
	L := batchLen(batch, t.w.Config.Context)
	parts := chunks(len(batch), L)
	rows := bucketBatch
	if hasBranches(batch) {
		rows = packedBatch
	}
	st := Stats{LogProbs: make([][]float32, len(batch))}
	for ci, ch := range parts {
		sub := batch[ch[0]:ch[1]]
		g, err := t.graph(rows(len(sub)), L)
		if err != nil {
			return Stats{}, fmt.Errorf("train step: %w", err)
		}
		fillPolicy(g, sub, temp, obj)
		if err := g.run(t.params, true); err != nil {
			return Stats{}, fmt.Errorf("train step: %w", err)
		}
		st.Loss += g.costValue()
		responseRows(sub, L, func(r, row int) {
			tok := &g.loss.tok[row]
			st.Tokens++
			st.Entropy += tok.Entropy
			st.LogProbs[ch[0]+r] = append(st.LogProbs[ch[0]+r], float32(tok.LogProb))
		})
		// the gradients are copied out of the graph even for one chunk:
		// its buffers are the slab the trainer's other graphs share
		if t.acc == nil {
			for _, p := range t.params {
				t.acc = append(t.acc, make([]float32, len(p)))
			}
		}
		for i := range t.params {
			a, gi := t.acc[i], g.grad(i)
			if ci == 0 {
				copy(a, gi)
				continue
			}
			for j, x := range gi {
				a[j] += x
			}
		}
		t.grads = t.acc
	}
	if st.Tokens > 0 {
		st.Entropy /= float64(st.Tokens)
	}
	if update {
		st.GradNorm, st.LR = t.opt.step(t.params, t.grads)
	}
	return st, nil
}

// Evaluate returns, per sequence, the log-prob of each response token and
// the entropy of the softmax at its position under the current weights at
// temperature temp (0 means 1; the policy softmax(logits / temp), as
// Step trains it), without updating them. A packed
// sequence's values are its own response's followed by each branch's, in
// order.
func (t *Trainer) Evaluate(batch []Sequence, temp float64) (logp, entropy [][]float32, err error) {
	if len(batch) == 0 {
		return nil, nil, errors.New("evaluate: empty batch")
	}
	if err := CheckTemperature(temp); err != nil {
		return nil, nil, fmt.Errorf("evaluate: sample.temperature = %w", err)
	}
	if temp == 0 {
		temp = 1
	}
	for i := range batch {
		if err := checkSequence(i, &batch[i], t.w.Config); err != nil {
			return nil, nil, fmt.Errorf("evaluate: %w", err)
		}
	}
	t.refreshParams()
	logp, entropy = make([][]float32, len(batch)), make([][]float32, len(batch))
	for _, grp := range evalGroups(batch, t.w.Config.Context) {
		sub := make([]Sequence, len(grp))
		for i, j := range grp {
			sub[i] = batch[j]
		}
		L := batchLen(sub, t.w.Config.Context)
		g, err := t.graph(bucketBatch(len(sub)), L)
		if err != nil {
			return nil, nil, fmt.Errorf("evaluate: %w", err)
		}
		fillPolicy(g, sub, temp, nil)
		if err := g.run(t.params, false); err != nil {
			return nil, nil, fmt.Errorf("evaluate: %w", err)
		}
		responseRows(sub, L, func(r, row int) {
			tok := &g.loss.tok[row]
			logp[grp[r]] = append(logp[grp[r]], float32(tok.LogProb))
			entropy[grp[r]] = append(entropy[grp[r]], float32(tok.Entropy))
		})
	}
	return logp, entropy, nil
}

// evalGroups splits batch into graph runs for Evaluate: the sequences in
// order of length, cut into groups of a power-of-two size (no padding
// rows) of at most maxChunkTokens padded tokens, so that short sequences
// are not padded to the longest of the batch. A sequence's log-probs do
// not depend on the rows beside it or on the padding, so the grouping
// changes no value.
func evalGroups(batch []Sequence, context int) [][]int {
	order := make([]int, len(batch))
	for i := range order {
		order[i] = i
	}
	tokens := func(i int) int { return batch[i].inputs() }
	slices.SortStableFunc(order, func(a, b int) int { return tokens(a) - tokens(b) })
	var out [][]int
	for lo := 0; lo < len(order); {
		size := 1
		for lo+2*size <= len(order) && 2*size*bucketLen(tokens(order[lo+2*size-1]), context) <= maxChunkTokens {
			size *= 2
		}
		out = append(out, order[lo:lo+size])
		lo += size
	}
	return out
}

// Gradients returns a copy of the raw (unclipped) gradients of the last
// step, aligned with the weights' parameters; nil before the first step.
func (t *Trainer) Gradients() [][]float32 {
	var out [][]float32
	for _, g := range t.grads {
		out = append(out, append([]float32(nil), g...))
	}
	return out
}

// Steps is the number of optimizer steps taken so far (those of a restored
// state included).
func (t *Trainer) Steps() int { return t.opt.state.Step }

// SetLRScale multiplies the rate of the steps that follow (the
// OptimConfig schedule's) by s, until the next call: a caller that decays
// the rate by its own clock (train: by iteration) sets it before each
// round of steps. It is no part of State: the caller sets it again after
// a restore. s must be finite and ≥ 0; 1 until set.
func (t *Trainer) SetLRScale(s float64) error {
	if err := t.opt.setScale(s); err != nil {
		return fmt.Errorf("trainer: %w", err)
	}
	return nil
}

// State returns a copy of the optimizer state (for checkpoints).
func (t *Trainer) State() AdamState { return t.opt.stateCopy() }

// SetState restores an optimizer state saved by State.
func (t *Trainer) SetState(s AdamState) error {
	if err := t.opt.setState(t.w, s); err != nil {
		return fmt.Errorf("trainer: %w", err)
	}
	return nil
}

// Weights returns the weights the trainer updates.
func (t *Trainer) Weights() *Weights { return t.w }
