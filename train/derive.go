package train

import "github.com/gemgo/gemgo/policy"

// The values derived from a Config, in one place: what the user set plus
// what only the run knows (the vocabulary, the run's optimizer steps).

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

// optimConfig is Adam at learning rate lr; with optim.cosine and no
// optim.total_steps the decay ends at the run's estimated optimizer steps.
func (c *Config) optimConfig(lr float64) policy.OptimConfig {
	oc := c.Optim.OptimConfig
	oc.LR = lr
	if c.Optim.Cosine && oc.TotalSteps == 0 {
		oc.TotalSteps = c.optimizerSteps()
	}
	return oc
}

// criticLR is the critic's learning rate: algo.critic_lr, or optim.lr.
func (c *Config) criticLR() float64 {
	if c.Algo.CriticLR > 0 {
		return c.Algo.CriticLR
	}
	return c.Optim.LR
}

// optimizerSteps estimates the optimizer steps of the whole run (for the
// cosine schedule): epochs × minibatches per iteration × iterations.
func (c *Config) optimizerSteps() int {
	perIter := c.Rollout.Episodes * 3 // a rough number of transitions when the budget is in episodes
	if c.Rollout.Steps > 0 {
		perIter = c.Rollout.Steps
	}
	mb := 1
	if c.Algo.MinibatchSize > 0 {
		mb = max(1, (perIter+c.Algo.MinibatchSize-1)/c.Algo.MinibatchSize)
	}
	return c.Iterations * max(c.Algo.Epochs, 1) * mb
}

// warmupConfig is the format warm-up of warmup.steps steps, on prompts as
// long as the agent's (the context less the response).
func (c *Config) warmupConfig() policy.WarmupConfig {
	return policy.WarmupConfig{Steps: c.Warmup.Steps, BatchSize: c.Warmup.BatchSize, PromptTokens: c.Model.Context - c.Sample.MaxNewTokens}
}
