package policy

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
)

// WarmupConfig sets up the format warm-up. Zero fields take their defaults.
type WarmupConfig struct {
	Steps     int // supervised Adam steps; 0 means 300
	BatchSize int // (observation, action) pairs per step; 0 means 32
	// PromptTokens is the longest prompt (BOS ... SEP) trained on; a longer
	// prompt keeps BOS and its last PromptTokens−1 tokens, as rollout.Agent
	// cuts prompts to the context. Set it to Context − MaxNewTokens of the
	// sampler to train on exactly the prompts the agent will read. 0 means
	// as long as the context leaves room for the response.
	PromptTokens int
	// Start is the number of steps already taken (a resumed warm-up, with
	// the trainer's and rng's state after them): steps Start+1 to Steps run.
	Start int
	// Log, optional, is called after every step (steps count from 1).
	Log func(step int, s Stats)
}

// DefaultWarmupConfig is the zero config with its defaults filled in.
func DefaultWarmupConfig() WarmupConfig { return WarmupConfig{}.withDefaults() }

func (c WarmupConfig) withDefaults() WarmupConfig {
	if c.Steps == 0 {
		c.Steps = 300
	}
	if c.BatchSize == 0 {
		c.BatchSize = 32
	}
	return c
}

// Validate checks c (after defaults), naming the field and allowed range.
func (c WarmupConfig) Validate() error {
	c = c.withDefaults()
	switch {
	case c.Steps < 1 || c.Steps > 1_000_000:
		return fmt.Errorf("warmup.steps = %d: allowed [1, 1000000] (0: 300)", c.Steps)
	case c.BatchSize < 1 || c.BatchSize > 65536:
		return fmt.Errorf("warmup.batch_size = %d: allowed [1, 65536] (0: 32)", c.BatchSize)
	case c.Start < 0 || c.Start > c.Steps:
		return fmt.Errorf("WarmupConfig.Start = %d: want [0, Steps = %d]", c.Start, c.Steps)
	case c.PromptTokens < 0 || c.PromptTokens == 1:
		return fmt.Errorf("WarmupConfig.PromptTokens = %d: want at least 2 (BOS and SEP), or 0 for the context's room", c.PromptTokens)
	}
	return nil
}

// PairFunc draws one warm-up example: an observation, as the policy reads
// it, and a valid action for it (an env's SampleAction). It draws only from
// rng, so that the warm-up is deterministic.
type PairFunc func(rng *rand.Rand) (obs, action string)

// WarmupStats summarises a warm-up.
type WarmupStats struct {
	Steps int       // steps taken (by this call)
	Pairs int       // examples trained on (Steps × BatchSize)
	Cut   int       // prompts cut to fit PromptTokens or the context
	Loss  []float64 // the mean cross-entropy of the response tokens, per step
}

// Warmup is the format warm-up: supervised training on (observation →
// action) pairs, so that a policy trained from scratch learns the action
// format (for the games, \boxed{...}) before RL, as a pretrained model
// already knows it. Each step draws BatchSize pairs, encodes them as
// Sequence{Prompt: tok.EncodePrompt(obs), Response: tok.EncodeResponse(action)}
// and takes one (*Trainer).SupervisedStep (mean cross-entropy of the
// response tokens, EOS included).
//
// The same rng state and pairs give the same weights. An error stops the
// warm-up, and so does ctx's end (checked before each step: the error is
// then ctx.Err()); the stats cover the steps taken before it.
func Warmup(ctx context.Context, t *Trainer, tok *Tokenizer, pairs PairFunc, cfg WarmupConfig, rng *rand.Rand) (WarmupStats, error) {
	var st WarmupStats
	switch {
	case t == nil:
		return st, errors.New("warm-up: nil trainer")
	case tok == nil:
		return st, errors.New("warm-up: nil tokenizer")
	case pairs == nil:
		return st, errors.New("warm-up: nil pair function")
	case rng == nil:
		return st, errors.New("warm-up: nil rng")
	}
	if err := cfg.Validate(); err != nil {
		return st, fmt.Errorf("warm-up: %w", err)
	}
	cfg = cfg.withDefaults()
	mc := t.Weights().Config
	if mc.Vocab != tok.VocabSize() {
		return st, fmt.Errorf("warm-up: the model has a vocabulary of %d tokens but the tokenizer has %d: build the model with Config.Vocab = Tokenizer.VocabSize()", mc.Vocab, tok.VocabSize())
	}
	st.Loss = make([]float64, 0, cfg.Steps-cfg.Start)
	batch := make([]Sequence, cfg.BatchSize)
	for step := cfg.Start + 1; step <= cfg.Steps; step++ {
		if err := ctx.Err(); err != nil {
			return st, err
		}
		for i := range batch {
			obs, action := pairs(rng)
			resp := tok.EncodeResponse(action)
			// Training needs len(prompt) + len(resp) − 1 ≤ Context.
			room := mc.Context + 1 - len(resp)
			if cfg.PromptTokens > 0 {
				room = min(room, cfg.PromptTokens)
			}
			if room < 2 {
				return st, fmt.Errorf("warm-up step %d: action %q is %d tokens with EOS: no room for a prompt in model.context = %d", step, action, len(resp), mc.Context)
			}
			prompt := tok.EncodePrompt(obs)
			if len(prompt) > room {
				prompt = CutPrompt(prompt, room)
				st.Cut++
			}
			batch[i] = Sequence{Prompt: prompt, Response: resp}
		}
		s, err := t.SupervisedStep(batch)
		if err != nil {
			return st, fmt.Errorf("warm-up step %d: %w", step, err)
		}
		st.Steps++
		st.Pairs += len(batch)
		st.Loss = append(st.Loss, s.Loss)
		if cfg.Log != nil {
			cfg.Log(step, s)
		}
	}
	return st, nil
}

// CutPrompt fits prompt p into n tokens: p itself when it fits, else BOS
// (p[0]) and the last n−1 tokens, so the end of the observation (the
// latest turn, and SEP) is kept. n must be at least 2.
func CutPrompt(p []int, n int) []int {
	if len(p) <= n {
		return p
	}
	out := make([]int, 0, n)
	out = append(out, p[0])
	return append(out, p[len(p)-(n-1):]...)
}
