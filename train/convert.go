package train

import (
	"github.com/gemgo/gemgo/algo"
	"github.com/gemgo/gemgo/policy"
)

// shape wraps a policy.Config so Validate can check it before the
// vocabulary is known.
type shape struct{ policy.Config }

func (s shape) validateShape() error {
	c := s.Config
	if c.Vocab == 0 {
		c.Vocab = 4
	}
	return c.Validate()
}

// policyConfig is the model shape for a vocabulary of vocab tokens.
func (c *Config) policyConfig(vocab int) shape {
	return shape{policy.Config{Vocab: vocab, Context: c.Model.Context, Layers: c.Model.Layers, DModel: c.Model.DModel, Heads: c.Model.Heads}}
}

func (c *Config) lossConfig() policy.LossConfig {
	return policy.LossConfig{ClipEps: c.Loss.ClipEps, EntropyCoef: c.Loss.EntropyCoef, KLCoef: c.Loss.KLCoef, Agg: policy.Aggregation(c.Loss.Agg)}
}

// optimConfig is Adam at learning rate lr over a run of totalSteps
// optimizer steps (for the cosine schedule).
func (c *Config) optimConfig(lr float64, totalSteps int) policy.OptimConfig {
	oc := policy.OptimConfig{LR: lr, MaxGradNorm: c.Optim.MaxGradNorm, WarmupSteps: c.Optim.WarmupSteps, MinLRFrac: c.Optim.MinLRFrac, WeightDecay: c.Optim.WeightDecay}
	if c.Optim.Cosine {
		oc.TotalSteps = totalSteps
	}
	return oc
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
	return c.Iterations * c.Algo.Epochs * mb
}

// algorithm builds the configured algorithm (critic is used by PPO only).
func (c *Config) algorithm(ref algo.Reference, critic algo.ValueLearner) algo.Algorithm {
	up := algo.UpdateConfig{Epochs: c.Algo.Epochs, MinibatchSize: c.Algo.MinibatchSize, Loss: c.lossConfig(), Reference: ref}
	switch c.Algo.Name {
	case "reinforce":
		return &algo.REINFORCE{Gamma: c.Algo.Gamma, Opt: up}
	case "rebn":
		return &algo.ReBN{Gamma: c.Algo.Gamma, Opt: up}
	case "grpo", "dr-grpo", "rloo":
		return &algo.GRPO{Variant: c.Algo.Name, Opt: up}
	case "ppo":
		return &algo.PPO{Gamma: c.Algo.Gamma, Lambda: c.Algo.Lambda, Whiten: c.Algo.Whiten, ValueClip: c.Algo.ValueClip, Critic: critic, Opt: up}
	}
	return nil
}
