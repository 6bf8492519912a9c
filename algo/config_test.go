package algo

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/policy"
)

type nopReference struct{}

func (nopReference) Evaluate([]policy.Sequence, float64) ([][]float32, [][]float32, error) {
	return nil, nil, nil
}

// New builds each named algorithm with its config's fields, and the
// predicates say what the trainer must provide.
func TestNew(t *testing.T) {
	assert.Equal(t, []string{"reinforce", "rebn", "grpo", "dr-grpo", "rloo", "ppo"}, Names())
	loss := LossConfig{Kind: PG, KLCoef: 0.1}
	deps := Deps{Loss: loss, Reference: nopReference{}, Critic: &criticRecorder{}}
	base := Config{Gamma: 0.7, Lambda: 0.8, Epsilon: 1e-3, Epochs: 3, MinibatchSize: 16, Whiten: true, ValueClip: 0.2}
	for _, name := range Names() {
		c := base
		c.Name = name
		a, err := New(c, deps)
		require.NoError(t, err, name)
		assert.Equal(t, name, a.Name())
		want := map[string]Algorithm{
			"reinforce": &REINFORCE{cfg: c, deps: deps},
			"rebn":      &ReBN{cfg: c, deps: deps},
			"grpo":      &GRPO{cfg: c, deps: deps},
			"dr-grpo":   &GRPO{cfg: c, deps: deps},
			"rloo":      &GRPO{cfg: c, deps: deps},
			"ppo":       &PPO{cfg: c, deps: deps},
		}
		assert.Equal(t, want[name], a, name)
		assert.Equal(t, name == "ppo", c.NeedsCritic(), name)
		assert.Equal(t, name == "grpo" || name == "dr-grpo" || name == "rloo", c.UsesGroups(), name)
	}
}

func TestNewErrors(t *testing.T) {
	for _, tc := range []struct {
		c    Config
		deps Deps
		want string
	}{
		{Config{Name: "dqn"}, Deps{}, `algo.name = "dqn": allowed reinforce, rebn, grpo, dr-grpo, rloo, ppo`},
		{Config{Name: "ppo"}, Deps{}, "trains a critic"},
		{Config{Name: "rebn", Gamma: 2}, Deps{}, "algo.gamma = 2"},
		{Config{Name: "rebn", Lambda: -1}, Deps{}, "algo.lambda = -1"},
		{Config{Name: "rebn", Epsilon: -1}, Deps{}, "algo.epsilon = -1"},
		{Config{Name: "rebn", Epochs: 101}, Deps{}, "algo.epochs = 101: allowed [0, 100]"},
		{Config{Name: "rebn", MinibatchSize: -1}, Deps{}, "algo.minibatch_size = -1"},
		{Config{Name: "ppo", ValueClip: -1}, Deps{}, "algo.value_clip = -1"},
		{Config{Name: "ppo", CriticLR: -1}, Deps{}, "algo.critic_lr = -1"},
		{Config{Name: "rebn"}, Deps{Loss: LossConfig{KLCoef: 0.1}}, "needs a reference policy"},
		{Config{Name: "rebn"}, Deps{Loss: LossConfig{Agg: "mean"}}, `loss.agg = "mean"`},
		{Config{Name: "rebn"}, Deps{Loss: LossConfig{ClipEps: 2}}, "loss.clip_eps = 2"},
	} {
		_, err := New(tc.c, tc.deps)
		assert.ErrorContains(t, err, tc.want, "%+v", tc.c)
	}
	// Validate alone names every bad field at once.
	err := Config{Name: "x", Gamma: 2, Epochs: -1}.Validate()
	require.Error(t, err)
	for _, w := range []string{"algo.name", "algo.gamma", "algo.epochs"} {
		assert.ErrorContains(t, err, w)
	}
}
