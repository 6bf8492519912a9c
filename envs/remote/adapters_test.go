package remote_test

import (
	"context"
	"encoding/json"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/builtin"
	"github.com/gemgo/gemgo/envs/envbuild"
	"github.com/gemgo/gemgo/envs/remote"
)

// adapterIDs are the ids the adapters play: a multi-turn game and a
// single-turn task.
var adapterIDs = []string{"game:GuessTheNumber-v0-easy", "math:Arithmetic-v0"}

// The framework adapters of python/gemgo/integrations, run against
// stand-ins of the frameworks' base classes (testdata/frameworks: only the
// interface each adapter uses) on a loopback server, play exactly what the
// env plays in-process: OpenRLHF's AgentInstance (through the multi-turn
// executor: the prompt and each environment feedback are the ChatML or
// plain rendering of the env's observations, each step's reward and done
// flag the env's), verl's GemgoAgentLoop (observations, step rewards,
// reward_score the summed reward, the episode's end; the script checks the
// response tokens, mask and cut-off at response_length) and Oat's
// GemgoActor (a vector env of 3 with concat_with_action: each
// Transition's observation, action, reward and done flag, and each
// TransitionData's last-token reward the turn's return discounted by
// gamma 0.5).
func TestPythonAdapters(t *testing.T) {
	py := pythonWithWebsockets(t)
	_, url := serve(t, remote.Config{})
	out := runPackage(t, py, url, "gemgo_adapters.py", append([]string{url, "6"}, adapterIDs...)...)
	var res struct {
		OpenRLHF []struct {
			ID       string    `json:"id"`
			Seed     uint64    `json:"seed"`
			Template string    `json:"template"`
			Prompt   string    `json:"prompt"`
			Actions  []string  `json:"actions"`
			Rewards  []float64 `json:"rewards"`
			Feedback []string  `json:"feedback"`
			Done     []bool    `json:"done"`
		} `json:"openrlhf"`
		Verl []struct {
			ID           string    `json:"id"`
			Seed         uint64    `json:"seed"`
			Actions      []string  `json:"actions"`
			Observations []string  `json:"observations"`
			Rewards      []float64 `json:"rewards"`
			Done         bool      `json:"done"`
			RewardScore  float64   `json:"reward_score"`
		} `json:"verl"`
		Oat []struct {
			ID      string    `json:"id"`
			Seed    uint64    `json:"seed"`
			Obs     []string  `json:"obs"`
			Actions []string  `json:"actions"`
			Rewards []float64 `json:"rewards"`
			Done    []bool    `json:"done"`
			Returns []float64 `json:"returns"`
			Gamma   float64   `json:"gamma"`
		} `json:"oat"`
		Checks []string `json:"checks"`
	}
	require.NoError(t, json.Unmarshal(out, &res), "%s", out)
	assert.Empty(t, res.Checks, "the script's own checks")
	require.Len(t, res.OpenRLHF, 8*len(adapterIDs))
	require.Len(t, res.Verl, 8*len(adapterIDs))
	require.NotEmpty(t, res.Oat)

	reg := builtin.Registry()
	mk := func(id, history string) envs.Env {
		env, err := envbuild.Make(context.Background(), reg, envbuild.Config{ID: id, History: history})
		require.NoError(t, err)
		t.Cleanup(func() { _ = envs.Close(env) })
		return env
	}
	// render is the adapter's text for an observation in its template:
	// plain, or ChatML turns.
	render := func(template, obs string, first, done bool) string {
		if template == "plain" {
			if first {
				return obs
			}
			return "\n" + obs + "\n"
		}
		s := "<|im_start|>user\n" + obs + "<|im_end|>\n"
		if !first {
			s = "\n" + s
		}
		if !done {
			s += "<|im_start|>assistant\n"
		}
		return s
	}

	for _, ep := range res.OpenRLHF {
		env := mk(ep.ID, "")
		obs, _, err := env.Reset(ep.Seed)
		require.NoError(t, err)
		require.Equal(t, render(ep.Template, obs, true, false), ep.Prompt, "openrlhf %s seed %d: prompt", ep.ID, ep.Seed)
		require.Len(t, ep.Rewards, len(ep.Actions))
		for i, a := range ep.Actions {
			st, err := env.Step(a)
			require.NoError(t, err)
			what := []any{"openrlhf %s seed %d step %d", ep.ID, ep.Seed, i + 1}
			require.Equal(t, st.Reward, ep.Rewards[i], what...)
			require.Equal(t, st.Done(), ep.Done[i], what...)
			require.Equal(t, render(ep.Template, st.Obs, false, st.Done()), ep.Feedback[i], what...)
		}
		require.True(t, ep.Done[len(ep.Done)-1], "openrlhf %s seed %d: played to the end", ep.ID, ep.Seed)
	}

	cut := 0
	for _, ep := range res.Verl {
		env := mk(ep.ID, "")
		obs, _, err := env.Reset(ep.Seed)
		require.NoError(t, err)
		require.Equal(t, obs, ep.Observations[0], "verl %s seed %d: first observation", ep.ID, ep.Seed)
		require.Len(t, ep.Observations, len(ep.Actions)+1)
		sum, done := 0.0, false
		for i, a := range ep.Actions {
			st, err := env.Step(a)
			require.NoError(t, err)
			require.Equal(t, st.Obs, ep.Observations[i+1], "verl %s seed %d step %d", ep.ID, ep.Seed, i+1)
			require.Equal(t, st.Reward, ep.Rewards[i], "verl %s seed %d step %d", ep.ID, ep.Seed, i+1)
			sum += st.Reward
			done = st.Done()
		}
		require.Equal(t, done, ep.Done, "verl %s seed %d: the episode's end", ep.ID, ep.Seed)
		require.InDelta(t, sum, ep.RewardScore, 1e-9, "verl %s seed %d: reward_score", ep.ID, ep.Seed)
		if !done {
			cut++
		}
	}
	assert.Positive(t, cut, "some verl episodes were cut off by response_length")

	for _, ep := range res.Oat {
		env := mk(ep.ID, envs.HistoryActions)
		obs, _, err := env.Reset(ep.Seed)
		require.NoError(t, err)
		for i, a := range ep.Actions {
			require.Equal(t, obs, ep.Obs[i], "oat %s seed %d step %d: observation", ep.ID, ep.Seed, i+1)
			st, err := env.Step(a)
			require.NoError(t, err)
			require.Equal(t, st.Reward, ep.Rewards[i], "oat %s seed %d step %d", ep.ID, ep.Seed, i+1)
			require.Equal(t, st.Done(), ep.Done[i], "oat %s seed %d step %d", ep.ID, ep.Seed, i+1)
			obs = st.Obs
		}
		require.True(t, ep.Done[len(ep.Done)-1], "oat %s seed %d: a finished episode", ep.ID, ep.Seed)
		for i := range ep.Returns {
			g := 0.0
			for k := len(ep.Rewards) - 1; k >= i; k-- {
				g = ep.Rewards[k] + ep.Gamma*g
			}
			require.LessOrEqual(t, math.Abs(g-ep.Returns[i]), 1e-9, "oat %s seed %d: return of turn %d", ep.ID, ep.Seed, i+1)
		}
	}
}
