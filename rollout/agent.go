package rollout

import (
	"fmt"
	"math/rand/v2"

	"github.com/gemgo/gemgo/policy"
)

// ValueModel values prompts: a critic such as *policy.Critic.
type ValueModel interface {
	Values(prompts [][]int) ([]float64, error)
}

// Agent is a transformer policy as a Policy: it encodes each observation
// as a prompt (BOS, observation, SEP), samples every response in one
// batched call of the KV-cache sampler, and decodes the responses (without
// EOS) to action text. With a Critic it also values each prompt.
//
// With RequireEOS, a response that does not end with EOS within
// Sample.MaxNewTokens is an unfinished answer: the env receives an empty
// action (a format error by the games' rules), as a chat model's answer cut
// at its length limit would be rejected. Without it, a policy learns to
// babble past the answer (the env reads the last \boxed{}), and its
// responses drift into junk that still parses.
//
// A prompt longer than the model's context minus Sample.MaxNewTokens keeps
// BOS and its last tokens: the observation's start is cut. Bound the
// history an observation wrapper keeps so that this does not happen.
type Agent struct {
	Tok     *policy.Tokenizer
	Sampler *policy.Sampler
	Sample  policy.SampleConfig
	Context int        // the model's context length
	Critic  ValueModel // optional

	RequireEOS bool // an unfinished response becomes the empty action
}

var (
	_ Policy = (*Agent)(nil)
	_ Valuer = (*Agent)(nil)
)

// Prompt encodes obs as the policy reads it, cut to fit the context.
func (a *Agent) Prompt(obs string) []int {
	p := a.Tok.EncodePrompt(obs)
	if room := a.Context - a.Sample.MaxNewTokens; room >= 2 {
		p = policy.CutPrompt(p, room)
	}
	return p
}

// Act samples one action per observation.
func (a *Agent) Act(obs []string, rng *rand.Rand) ([]Action, error) {
	prompts := make([][]int, len(obs))
	for i, o := range obs {
		prompts[i] = a.Prompt(o)
	}
	samples, err := a.Sampler.Sample(prompts, a.Sample, rng)
	if err != nil {
		return nil, err
	}
	var values []float64
	if a.Critic != nil {
		if values, err = a.Critic.Values(prompts); err != nil {
			return nil, fmt.Errorf("critic: %w", err)
		}
	}
	out := make([]Action, len(obs))
	for i, s := range samples {
		out[i] = Action{Text: a.Tok.Decode(s.Tokens), Prompt: prompts[i], Response: s.Tokens, LogProbs: s.LogProbs}
		if a.RequireEOS && !s.Stopped {
			out[i].Text = ""
		}
		if values != nil {
			out[i].Value = values[i]
		}
	}
	return out, nil
}

// Values values each observation with the critic (zeros without one).
func (a *Agent) Values(obs []string) ([]float64, error) {
	if a.Critic == nil {
		return make([]float64, len(obs)), nil
	}
	prompts := make([][]int, len(obs))
	for i, o := range obs {
		prompts[i] = a.Prompt(o)
	}
	return a.Critic.Values(prompts)
}
