package rollout

import "math/rand/v2"

// Action is what a policy answers to one observation.
type Action struct {
	Text     string    // the response text given to Env.Step
	Prompt   []int     // token ids the policy read (stored for training)
	Response []int     // token ids the policy wrote
	LogProbs []float32 // sampling log-probs of Response
	Value    float64   // the critic's value of the observation, when the policy has one
}

// Policy answers a batch of observations with one action each, in order.
// It draws its randomness from rng only.
type Policy interface {
	Act(obs []string, rng *rand.Rand) ([]Action, error)
}

// Valuer is implemented by policies with a critic: the value of each
// observation. The collector uses it for the final observation of a
// truncated episode (PPO bootstraps from it).
type Valuer interface {
	Values(obs []string) ([]float64, error)
}
