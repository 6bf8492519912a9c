package policy

import (
	"errors"
	"fmt"
	"math"
)

// ValueStats summarises one critic step.
type ValueStats struct {
	Loss      float64 // 0.5·mean (clipped) squared error
	ClipFrac  float64 // fraction of prompts where the clipped error was larger
	MeanValue float64 // mean V over the prompts (before the update)
	GradNorm  float64 // global gradient L2 norm before clipping
	LR        float64 // learning rate of this step
}

// Critic is PPO's turn-level value network: the transformer of CriticSpecs
// (no output projection) with a scalar head read at the last prompt token.
// It trains its Weights in place with Adam. Not safe for concurrent use.
type Critic struct {
	w      *Weights
	opt    *adam
	graphs graphCache[float32]
	mem    slab[float32] // the graphs' float buffers (arena.go)
	// maxGraphs bounds graphs (0: defaultMaxGraphs); tests lower it
	maxGraphs int
	params    [][]float32
	acc       [][]float32
}

// NewCritic returns a critic over w (from NewCriticWeights).
func NewCritic(w *Weights, oc OptimConfig) (*Critic, error) {
	if w == nil {
		return nil, errors.New("new critic: nil weights")
	}
	if err := checkLayout(w, CriticSpecs(w.Config)); err != nil {
		return nil, fmt.Errorf("new critic (weights must come from NewCriticWeights): %w", err)
	}
	opt, err := newAdam(w, oc)
	if err != nil {
		return nil, fmt.Errorf("new critic: %w", err)
	}
	return &Critic{w: w, opt: opt}, nil
}

func (c *Critic) checkPrompts(prompts [][]int) (int, error) {
	if len(prompts) == 0 {
		return 0, errors.New("no prompts")
	}
	cfg := c.w.Config
	n := 0
	for i, p := range prompts {
		if len(p) == 0 || len(p) > cfg.Context {
			return 0, fmt.Errorf("prompt %d has %d tokens: allowed 1..model.context (%d)", i, len(p), cfg.Context)
		}
		if err := checkTokens(fmt.Sprintf("prompt %d", i), p, cfg.Vocab); err != nil {
			return 0, err
		}
		n = max(n, len(p))
	}
	return bucketLen(n, cfg.Context), nil
}

// run evaluates (and with backward differentiates) the value loss of prompts
// against returns and oldValues, chunk by chunk; it returns the values and
// the summed loss. Gradients of all chunks are summed into c.acc.
func (c *Critic) run(prompts [][]int, returns, oldValues []float64, clip float64, backward bool) ([]float64, float64, float64, error) {
	L, err := c.checkPrompts(prompts)
	if err != nil {
		return nil, 0, 0, err
	}
	c.params = c.params[:0]
	for _, p := range c.w.Params {
		c.params = append(c.params, p.Data)
	}
	if backward && c.acc == nil {
		for _, p := range c.params {
			c.acc = append(c.acc, make([]float32, len(p)))
		}
	}
	values := make([]float64, 0, len(prompts))
	var loss, clipped float64
	m := float64(len(prompts))
	for ci, ch := range chunks(len(prompts), L) {
		sub := prompts[ch[0]:ch[1]]
		b := bucketBatch(len(sub))
		g, err := c.graphs.get(b, L, c.maxGraphs, func(b, L int) (*graph[float32], error) {
			return newGraphIn(c.w, c.params, b, L, true, &c.mem)
		})
		if err != nil {
			return nil, 0, 0, err
		}
		k := g.vloss
		clear(g.embed.ids)
		k.rows, k.returns, k.old = k.rows[:0], k.returns[:0], k.old[:0]
		k.clip = clip
		for r, p := range sub {
			copy(g.embed.ids[r*L:], p)
			k.rows = append(k.rows, r*L+len(p)-1)
			ret, old := 0.0, 0.0
			if returns != nil {
				ret = returns[ch[0]+r]
			}
			if oldValues != nil {
				old = oldValues[ch[0]+r]
			}
			k.returns, k.old = append(k.returns, ret), append(k.old, old)
		}
		if err := g.run(c.params, backward); err != nil {
			return nil, 0, 0, err
		}
		// the kernel averages over its chunk: rescale to the whole batch
		frac := float64(len(sub)) / m
		loss += g.costValue() * frac
		values = append(values, k.values...)
		for _, cl := range k.clipped {
			if cl {
				clipped++
			}
		}
		if !backward {
			continue
		}
		for i := range c.params {
			a, gi := c.acc[i], g.grad(i)
			if ci == 0 {
				clear(a)
			}
			for j, x := range gi {
				a[j] += x * float32(frac)
			}
		}
	}
	return values, loss, clipped / m, nil
}

// Values returns V(prompt) read at the last token of each prompt.
func (c *Critic) Values(prompts [][]int) ([]float64, error) {
	v, _, _, err := c.run(prompts, nil, nil, 0, false)
	if err != nil {
		return nil, fmt.Errorf("critic values: %w", err)
	}
	return v, nil
}

// Step minimises 0.5·mean((V − R)²) over the prompts with returns R; with
// clip > 0 the PPO clipped form 0.5·mean(max((V − R)², (V_clip − R)²)),
// V_clip = oldValues + clamp(V − oldValues, −clip, clip). It applies one
// Adam step.
func (c *Critic) Step(prompts [][]int, returns, oldValues []float64, clip float64) (ValueStats, error) {
	switch {
	case len(returns) != len(prompts):
		return ValueStats{}, fmt.Errorf("critic step: %d returns for %d prompts", len(returns), len(prompts))
	case clip < 0 || math.IsNaN(clip) || math.IsInf(clip, 0):
		return ValueStats{}, fmt.Errorf("critic step: clip = %v: must be finite and ≥ 0 (0: no clipping)", clip)
	case clip > 0 && len(oldValues) != len(prompts):
		return ValueStats{}, fmt.Errorf("critic step: value clipping needs %d old values, got %d", len(prompts), len(oldValues))
	}
	for _, xs := range [][]float64{returns, oldValues} {
		for _, x := range xs {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return ValueStats{}, fmt.Errorf("critic step: non-finite return or old value %v", x)
			}
		}
	}
	values, loss, clipFrac, err := c.run(prompts, returns, oldValues, clip, true)
	if err != nil {
		return ValueStats{}, fmt.Errorf("critic step: %w", err)
	}
	st := ValueStats{Loss: loss, ClipFrac: clipFrac}
	for _, v := range values {
		st.MeanValue += v / float64(len(values))
	}
	st.GradNorm, st.LR = c.opt.step(c.params, c.acc)
	return st, nil
}

// SetLRScale multiplies the rate of the steps that follow by s, as
// Trainer.SetLRScale does.
func (c *Critic) SetLRScale(s float64) error {
	if err := c.opt.setScale(s); err != nil {
		return fmt.Errorf("critic: %w", err)
	}
	return nil
}

// State returns a copy of the optimizer state.
func (c *Critic) State() AdamState { return c.opt.stateCopy() }

// SetState restores an optimizer state saved by State.
func (c *Critic) SetState(s AdamState) error {
	if err := c.opt.setState(c.w, s); err != nil {
		return fmt.Errorf("critic: %w", err)
	}
	return nil
}
