package train

import "github.com/gemgo/gemgo/policy"

// The values derived from a Config, in one place: what the user set plus
// what only the run knows (the vocabulary, the iteration).

// policyMaxVocab is the largest vocabulary policy accepts: the sampling
// check before the tokenizer exists uses it.
const policyMaxVocab = 1 << 20

// shape is the model shape Validate checks before the vocabulary is known
// (the smallest vocabulary policy accepts stands in for it).
func (c *Config) shape() policy.Config { return c.policyConfig(max(c.Model.Vocab, 4)) }

// policyConfig is the model shape for a vocabulary of vocab tokens.
func (c *Config) policyConfig(vocab int) policy.Config {
	pc := c.Model
	pc.Vocab = vocab
	return pc
}

// optimConfig is Adam at learning rate lr, with optim.warmup_steps' ramp
// by optimizer steps; the cosine decay is by iteration (lrScale).
func (c *Config) optimConfig(lr float64) policy.OptimConfig {
	oc := c.Optim.OptimConfig
	oc.LR = lr
	return oc
}

// lrScale is the factor on the learning rate of every optimizer step of
// iteration it (1-based) of the run: with optim.cosine, the cosine decay
// from 1 to optim.min_lr_frac over the iterations, at fraction
// it/iterations (the midpoint iteration gets the midpoint value, the last
// iteration the floor); 1 without it. All steps of an iteration share the
// factor, so the schedule does not depend on how many steps an iteration
// makes (its episodes, their turns, the minibatches): only on iterations.
// optim.warmup_steps' linear ramp by optimizer steps multiplies it.
func (c *Config) lrScale(it int) float64 {
	if !c.Optim.Cosine {
		return 1
	}
	return c.Optim.Decay(float64(it) / float64(c.Iterations))
}

// criticLR is the critic's learning rate: algo.critic_lr, or optim.lr.
func (c *Config) criticLR() float64 {
	if c.Algo.CriticLR > 0 {
		return c.Algo.CriticLR
	}
	return c.Optim.LR
}

// warmupConfig is the format warm-up of warmup.steps steps, on prompts as
// long as the agent's (the context less the response).
func (c *Config) warmupConfig() policy.WarmupConfig {
	return policy.WarmupConfig{Steps: c.Warmup.Steps, BatchSize: c.Warmup.BatchSize, PromptTokens: c.Model.Context - c.Sample.MaxNewTokens}
}
