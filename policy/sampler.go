package policy

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
)

// SampleConfig controls generation.
type SampleConfig struct {
	MaxNewTokens int     `yaml:"max_new_tokens"` // stop after this many new tokens (≥ 1)
	Temperature  float64 `yaml:"temperature"`    // softmax temperature, in training also the trained policy's (Trainer.Step's temp); 0 means 1
	TopP         float64 `yaml:"top_p"`          // nucleus sampling mass in (0, 1); 0 or 1: off
	Greedy       bool    `yaml:"-"`              // take the most likely token (ignores TopP; Temperature only scales the log-probs)
	EOS          int     `yaml:"-"`              // stop token id (the tokenizer's EOS); −1: none (benchmarks)
	// NoLogProbs, with Greedy, leaves Sample.LogProbs at 0: the arg max
	// needs no softmax, so a caller that reports no log-probs (a server)
	// saves one exp per vocabulary entry and token. The tokens are the same.
	NoLogProbs bool `yaml:"-"`
}

// Validate checks sc against a model of vocabulary vocab, naming the field
// by its key in a training config's sample section.
func (sc SampleConfig) Validate(vocab int) error {
	switch {
	case sc.MaxNewTokens < 1:
		return fmt.Errorf("sample.max_new_tokens = %d: must be ≥ 1", sc.MaxNewTokens)
	case CheckTemperature(sc.Temperature) != nil:
		return fmt.Errorf("sample.temperature = %w", CheckTemperature(sc.Temperature))
	case math.IsNaN(sc.TopP) || sc.TopP < 0 || sc.TopP > 1:
		return fmt.Errorf("sample.top_p = %v: allowed [0, 1] (0 or 1: off)", sc.TopP)
	case sc.EOS < -1 || sc.EOS >= vocab:
		return fmt.Errorf("stop token (EOS) %d: outside the vocabulary [0, %d) (−1: no stop token)", sc.EOS, vocab)
	}
	return nil
}

// CheckTemperature checks a softmax temperature (0 means 1), the one rule
// of sample.temperature wherever it is read.
func CheckTemperature(t float64) error {
	if math.IsNaN(t) || t < 0 || math.IsInf(t, 0) {
		return fmt.Errorf("%v: must be finite and ≥ 0 (0 means 1)", t)
	}
	return nil
}

// Sample is one generated response.
type Sample struct {
	Tokens   []int     // generated tokens, including the EOS when one was emitted
	LogProbs []float32 // log π(token | prefix) at the sampling temperature (before top-p's cut), one per token
	Stopped  bool      // ended by EOS (false: hit MaxNewTokens or the context)
}

// Sampler generates responses with an incremental KV-cache decoder over the
// current values of a Weights (a Trainer updating the same Weights is seen
// by the next call). It keeps its buffers between calls, and with them the
// keys and values of the tokens it decoded: a prompt that starts with
// tokens an earlier call decoded under the same weights (the next turn of
// an episode whose prompt holds the history) feeds only the tokens after
// them, with the same results to the bit. Not safe for concurrent use.
type Sampler struct {
	w      *Weights
	dc     decoder
	pc     prefixCache
	logits []float32
	lp     []float64
	idx    []int
}

// NewSampler returns a sampler over w (a policy from NewWeights).
func NewSampler(w *Weights) *Sampler { return &Sampler{w: w} }

// Freeze promises that the sampler's weights will not change again (a
// server's): the prefix cache then fingerprints them at the first call
// only, not at every call. Rows computed before a later change would be
// reused as if nothing had changed, so a trainer must not freeze.
func (s *Sampler) Freeze() { s.pc.frozen = true }

// PromptTokens counts the prompt tokens of every Sample call so far: those
// whose keys and values an earlier call had computed (reused) and the
// others (computed: fed through the model, or copied from another prompt
// of the same call, which SharedPromptTokens counts).
func (s *Sampler) PromptTokens() (reused, computed int) { return s.pc.reused, s.pc.computed }

// SharedPromptTokens counts the prompt tokens whose keys and values were
// copied from another prompt of the same call (one that starts with the
// same tokens) instead of being computed again.
func (s *Sampler) SharedPromptTokens() int { return s.pc.shared }

func (s *Sampler) check() error {
	if s.w == nil {
		return errors.New("sampler: nil weights")
	}
	return checkLayout(s.w, Specs(s.w.Config))
}

func checkTokens(what string, toks []int, vocab int) error {
	for _, t := range toks {
		if t < 0 || t >= vocab {
			return fmt.Errorf("%s: token id %d outside the vocabulary [0, %d)", what, t, vocab)
		}
	}
	return nil
}

// Sample generates one response per prompt. Prompts may differ in length;
// each must hold 1..Context tokens. A response ends at EOS, after
// MaxNewTokens tokens, or when prompt and response reach Context+1 tokens
// (the model reads at most Context). Random draws come from rng in a fixed
// order (rows in order, one per sampled token), so the same rng state gives
// the same samples.
func (s *Sampler) Sample(prompts [][]int, sc SampleConfig, rng *rand.Rand) ([]Sample, error) {
	if rng == nil && !sc.Greedy {
		return nil, errors.New("sample: nil rng (needed unless greedy)")
	}
	return s.sample(prompts, sc, func(int) *rand.Rand { return rng })
}

// SampleEach is Sample with one rng per prompt: prompt i draws from
// rngs[i] only, so its response does not depend on the other prompts of
// the batch (a server that batches independent requests stays
// reproducible per request). rngs may be nil when sc.Greedy.
func (s *Sampler) SampleEach(prompts [][]int, sc SampleConfig, rngs []*rand.Rand) ([]Sample, error) {
	if !sc.Greedy {
		if len(rngs) != len(prompts) {
			return nil, fmt.Errorf("sample: %d rngs for %d prompts (one each, needed unless greedy)", len(rngs), len(prompts))
		}
		for i, r := range rngs {
			if r == nil {
				return nil, fmt.Errorf("sample: nil rng for prompt %d (needed unless greedy)", i)
			}
		}
	}
	return s.sample(prompts, sc, func(i int) *rand.Rand {
		if rngs == nil {
			return nil
		}
		return rngs[i]
	})
}

func (s *Sampler) sample(prompts [][]int, sc SampleConfig, rngOf func(i int) *rand.Rand) ([]Sample, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	c := s.w.Config
	if err := sc.Validate(c.Vocab); err != nil {
		return nil, fmt.Errorf("sample: %w", err)
	}
	if len(prompts) == 0 {
		return nil, nil
	}
	for i, p := range prompts {
		if len(p) == 0 {
			return nil, fmt.Errorf("sample: prompt %d is empty (it must hold at least BOS)", i)
		}
		if len(p) > c.Context {
			return nil, fmt.Errorf("sample: prompt %d has %d tokens, model.context is %d: no room to generate; shorten the prompt", i, len(p), c.Context)
		}
		if err := checkTokens(fmt.Sprintf("sample: prompt %d", i), p, c.Vocab); err != nil {
			return nil, err
		}
	}
	temp := sc.Temperature
	if temp == 0 {
		temp = 1
	}
	s.pc.check(s.w)
	slot, start, copies, slots := s.pc.assign(prompts)
	s.dc.reset(s.w, slots)
	for _, cp := range copies {
		s.dc.copyRows(cp.from, cp.to, cp.n)
	}
	// prefixes shared within the call: the leaders' first tokens, then
	// copies of them
	need, follow := share(prompts, start)
	var pre []span
	for i, n := range need {
		if n > start[i] {
			pre = append(pre, span{slot: slot[i], start: start[i], tokens: prompts[i][start[i]:n], row: i})
			start[i] = n
		}
	}
	if len(pre) > 0 {
		s.dc.forward(pre)
	}
	for i, f := range follow {
		if f.lead >= 0 {
			s.dc.copyRows(slot[f.lead], slot[i], f.n)
			s.pc.shared += f.n - start[i]
			start[i] = f.n
		}
	}
	out := make([]Sample, len(prompts))
	pos := make([]int, len(prompts)) // tokens fed so far per prompt
	spans := make([]span, 0, len(prompts))
	for i, p := range prompts {
		spans = append(spans, span{slot: slot[i], start: start[i], tokens: p[start[i]:], row: i})
	}
	next := make([]int, len(prompts))
	defer func() { s.pc.remember(slots, slot, prompts, out) }()
	for len(spans) > 0 {
		hidden := s.dc.forward(spans)
		d, V := c.DModel, c.Vocab
		// the hidden state of each span's last token
		last := make([]int, len(spans))
		row := 0
		for j, sp := range spans {
			row += len(sp.tokens)
			last[j] = row - 1
		}
		s.logits = grow(s.logits, len(spans)*V)
		for j, r := range last {
			if r != j {
				copy(hidden[j*d:(j+1)*d], hidden[r*d:(r+1)*d])
			}
		}
		s.dc.logits(s.logits, hidden, len(spans))
		var nextSpans []span
		for j, sp := range spans {
			i := sp.row
			pos[i] = sp.start + len(sp.tokens)
			z := s.logits[j*V : (j+1)*V]
			tok, lp := s.pick(z, temp, sc, rngOf(i))
			out[i].Tokens = append(out[i].Tokens, tok)
			out[i].LogProbs = append(out[i].LogProbs, lp)
			switch {
			case tok == sc.EOS:
				out[i].Stopped = true
			case len(out[i].Tokens) >= sc.MaxNewTokens, pos[i] >= c.Context:
			default:
				next[i] = tok
				nextSpans = append(nextSpans, span{slot: sp.slot, start: pos[i], tokens: next[i : i+1], row: i})
			}
		}
		spans = nextSpans
	}
	return out, nil
}

// pick chooses the next token from logits z and returns it with its
// log-prob under softmax(z / temp), the policy a trainer at temperature
// temp trains (Trainer.Step's temp); top-p's cut is not in it, as in
// verl.
func (s *Sampler) pick(z []float32, temp float64, sc SampleConfig, rng *rand.Rand) (int, float32) {
	V := len(z)
	if cap(s.lp) < V {
		s.lp = make([]float64, V)
	}
	lp := s.lp[:V]
	mx := math.Inf(-1)
	arg := 0
	for j, v := range z {
		if float64(v) > mx {
			mx, arg = float64(v), j
		}
	}
	if sc.Greedy && sc.NoLogProbs {
		return arg, 0
	}
	// lp holds e^(z−max): the sum's terms, and at temperature 1 the
	// unnormalised probabilities too (x/1 = x, so the same values)
	var sum float64
	for j, v := range z {
		e := math.Exp(float64(v) - mx)
		sum += e
		lp[j] = e
	}
	lse := mx + math.Log(sum)
	if sc.Greedy && temp == 1 {
		return arg, float32(float64(z[arg]) - lse)
	}
	// probabilities at temperature temp (unnormalised, in lp's place)
	probs, tot := lp, sum
	if temp != 1 {
		tot = 0
		for j, v := range z {
			probs[j] = math.Exp((float64(v) - mx) / temp)
			tot += probs[j]
		}
	}
	sumT := tot // Σ e^((z−max)/temp), before top-p changes tot
	if sc.Greedy {
		return arg, tempLogProb(z[arg], mx, temp, sumT)
	}
	if sc.TopP > 0 && sc.TopP < 1 {
		if cap(s.idx) < V {
			s.idx = make([]int, V)
		}
		idx := s.idx[:V]
		for j := range idx {
			idx[j] = j
		}
		sort.SliceStable(idx, func(a, b int) bool { return probs[idx[a]] > probs[idx[b]] })
		var cum float64
		keep := V
		for r, j := range idx {
			cum += probs[j] / tot
			if cum >= sc.TopP {
				keep = r + 1
				break
			}
		}
		tot = 0
		for r, j := range idx {
			if r >= keep {
				probs[j] = 0
			} else {
				tot += probs[j]
			}
		}
	}
	u := rng.Float64() * tot
	tok := -1
	for j, p := range probs {
		if p == 0 {
			continue
		}
		tok = j
		if u < p {
			break
		}
		u -= p
	}
	return tok, tempLogProb(z[tok], mx, temp, sumT)
}

// LogProbs returns log π(response[i] | prompt, response[:i]) for each
// response token under the current weights at temperature temp (0 means
// 1; what Sample records at that temperature), by a plain-Go forward pass.
func (s *Sampler) LogProbs(prompt, response []int, temp float64) ([]float32, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	c := s.w.Config
	if temp == 0 {
		temp = 1
	}
	switch {
	case CheckTemperature(temp) != nil:
		return nil, fmt.Errorf("log-probs: temperature %w", CheckTemperature(temp))
	case len(prompt) == 0:
		return nil, errors.New("log-probs: empty prompt")
	case len(response) == 0:
		return nil, nil
	case len(prompt)+len(response)-1 > c.Context:
		return nil, fmt.Errorf("log-probs: prompt %d + response %d tokens exceed model.context %d + 1", len(prompt), len(response), c.Context)
	}
	if err := checkTokens("log-probs: prompt", prompt, c.Vocab); err != nil {
		return nil, err
	}
	if err := checkTokens("log-probs: response", response, c.Vocab); err != nil {
		return nil, err
	}
	seq := append(append([]int(nil), prompt...), response[:len(response)-1]...)
	s.pc.drop() // slot 0 is overwritten
	s.dc.reset(s.w, 1)
	hidden := s.dc.forward([]span{{slot: 0, start: 0, tokens: seq}})
	d, V := c.DModel, c.Vocab
	n := len(response)
	h := hidden[(len(prompt)-1)*d : (len(prompt)-1+n)*d]
	s.logits = grow(s.logits, n*V)
	s.dc.logits(s.logits, h, n)
	out := make([]float32, n)
	for i, t := range response {
		z := s.logits[i*V : (i+1)*V]
		out[i] = logProbAt(z, t, temp)
	}
	return out, nil
}

// logProbAt is log softmax(z / temp)[t], computed as pick computes it.
func logProbAt(z []float32, t int, temp float64) float32 {
	mx := math.Inf(-1)
	for _, v := range z {
		mx = max(mx, float64(v))
	}
	var s float64
	for _, v := range z {
		s += math.Exp((float64(v) - mx) / temp)
	}
	return tempLogProb(z[t], mx, temp, s)
}

// tempLogProb is log softmax(z / temp) of the logit zt, given z's maximum
// mx and sum = Σ e^((z−mx)/temp); pick and logProbAt share it, so the
// sampler's recorded log-probs and LogProbs' agree to the bit (at
// temperature 1 with the rounding the sampler has always used).
func tempLogProb(zt float32, mx, temp, sum float64) float32 {
	if temp == 1 {
		return zt - float32(mx+math.Log(sum))
	}
	return float32((float64(zt)-mx)/temp - math.Log(sum))
}
