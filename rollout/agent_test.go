package rollout

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/policy"
)

func tinyAgent(t *testing.T, maxNew int, requireEOS bool) *Agent {
	tok := policy.BuildTokenizer([]string{"Guess 1 to 9: higher lower", `\boxed{5}`}, 16)
	w, err := policy.NewWeights(policy.Config{Vocab: tok.VocabSize(), Context: 32, Layers: 1, DModel: 8, Heads: 2}, rand.New(rand.NewPCG(1, 2)))
	require.NoError(t, err)
	return &Agent{Tok: tok, Sampler: policy.NewSampler(w), Context: 32, RequireEOS: requireEOS,
		Sample: policy.SampleConfig{MaxNewTokens: maxNew, EOS: tok.EOS()}}
}

func TestAgentRequireEOS(t *testing.T) {
	obs := make([]string, 64)
	for i := range obs {
		obs[i] = "Guess 1 to 9: higher"
	}
	for _, require := range []bool{false, true} {
		a := tinyAgent(t, 2, require)
		acts, err := a.Act(obs, rand.New(rand.NewPCG(3, 4)))
		assert.NoError(t, err)
		unfinished := 0
		for _, act := range acts {
			stopped := len(act.Response) > 0 && act.Response[len(act.Response)-1] == a.Tok.EOS()
			assert.Equal(t, len(act.Response), len(act.LogProbs))
			if !stopped {
				unfinished++
				if require {
					assert.Equal(t, "", act.Text, "an unfinished response is sent as the empty action")
				} else {
					assert.Equal(t, a.Tok.Decode(act.Response), act.Text)
				}
			}
		}
		assert.Positive(t, unfinished, "a random model rarely stops within 2 tokens")
	}
}

func TestAgentPromptCut(t *testing.T) {
	a := tinyAgent(t, 4, true)
	long := ""
	for i := 0; i < 40; i++ {
		long += "higher "
	}
	p := a.Prompt(long)
	assert.Len(t, p, 32-4, "prompt cut to the context minus the response room")
	assert.Equal(t, a.Tok.BOS(), p[0], "BOS kept")
	assert.Equal(t, a.Tok.SEP(), p[len(p)-1], "the end of the observation kept")
	short := a.Prompt("higher")
	assert.Equal(t, a.Tok.EncodePrompt("higher"), short)
}
