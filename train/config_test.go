package train

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDefaultConfigValid(t *testing.T) {
	c := DefaultConfig()
	require.NoError(t, c.Validate())
}

func TestParseErrors(t *testing.T) {
	cases := []struct {
		name, yaml string
		sets       []string
		want       []string // substrings of the error
	}{
		{"unknown top key", "iteratons: 5\n", nil, []string{`unknown key "iteratons"`, "the top level", "iterations"}},
		{"unknown section key", "algo:\n  gama: 0.9\n", nil, []string{`unknown key "gama"`, "section algo", "gamma"}},
		{"mistyped value", "algo:\n  epochs: two\n", nil, []string{"line 2", "epochs"}},
		{"bad gamma", "algo:\n  gamma: 1.5\n", nil, []string{"algo.gamma = 1.5", "[0, 1]"}},
		{"bad algo", "algo:\n  name: dqn\n", nil, []string{`algo.name = "dqn"`, "rebn", "ppo"}},
		{"grpo needs groups", "algo:\n  name: grpo\n", nil, []string{"rollout.group_size = 1", "at least 2"}},
		{"both budgets", "rollout:\n  steps: 100\n", nil, []string{"exactly one of episodes"}},
		{"bad heads", "model:\n  heads: 5\n", nil, []string{"model.heads = 5", "divide"}},
		{"bad history", "env:\n  history: all\n", nil, []string{`env.history = "all"`, "observations"}},
		{"bad temperature", "sample:\n  temperature: 0\n", nil, []string{"sample.temperature"}},
		{"max new tokens", "sample:\n  max_new_tokens: 500\n", nil, []string{"sample.max_new_tokens = 500"}},
		{"bad agg", "loss:\n  agg: mean\n", nil, []string{`loss.agg = "mean"`, "token-mean"}},
		{"reset without kl", "loss:\n  kl_reset_every: 10\n", nil, []string{"loss.kl_reset_every = 10", "kl_coef"}},
		{"negative reset", "loss:\n  kl_coef: 0.1\n  kl_reset_every: -1\n", nil, []string{"loss.kl_reset_every = -1", "≥ 0"}},
		{"set unknown", "", []string{"algo.gama=0.5"}, []string{`unknown key "gama"`, "section algo", "gamma"}},
		{"set section", "", []string{"algo=1"}, []string{"is a section"}},
		{"set bad value", "", []string{"algo.epochs=many"}, []string{"algo.epochs", "whole number"}},
		{"set no equals", "", []string{"algo.epochs"}, []string{"want key=value"}},
		{"set validates", "", []string{"algo.gamma=2"}, []string{"algo.gamma = 2"}},
		{"not yaml", "algo: [\n", nil, []string{"YAML"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse([]byte(c.yaml), c.sets)
			require.Error(t, err)
			for _, w := range c.want {
				assert.Contains(t, err.Error(), w)
			}
		})
	}
}

func TestParseOverrides(t *testing.T) {
	c, err := Parse([]byte("algo:\n  gamma: 0.5\n"), []string{"algo.epochs=3", "env.options.style=gem", "sample.temperature=0.7", "name=x"})
	require.NoError(t, err)
	assert.Equal(t, 0.5, c.Algo.Gamma)
	assert.Equal(t, 3, c.Algo.Epochs)
	assert.Equal(t, "gem", c.Env.Options["style"])
	assert.Equal(t, 0.7, c.Sample.Temperature)
	assert.Equal(t, "x", c.Name)
	// Untouched fields keep their defaults.
	assert.Equal(t, DefaultConfig().Model, c.Model)

	// env.options={...} replaces the whole map (a base's option the new env lacks goes away).
	c, err = Parse([]byte("env:\n  options: {style: brief, partial_credit: false}\n"), []string{"env.options={style: gem, bits: 4}"})
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"style": "gem", "bits": 4}, c.Env.Options)
}

func TestConfigRoundTrip(t *testing.T) {
	c := DefaultConfig()
	c.Algo.Name, c.Rollout.GroupSize = "grpo", 8
	data, err := c.Marshal()
	require.NoError(t, err)
	back, err := Parse(data, nil)
	require.NoError(t, err)
	assert.Equal(t, c, back)
}

func TestLoadFileAndResolve(t *testing.T) {
	dir := t.TempDir()
	_, err := LoadFile(filepath.Join(dir, "missing.yaml"), nil)
	assert.ErrorContains(t, err, "no such file")
	p := filepath.Join(dir, "mine.yaml")
	require.NoError(t, os.WriteFile(p, []byte("iterations: 7\n"), 0o644))
	assert.Equal(t, p, ResolveConfigPath("mine", dir))
	assert.Equal(t, p, ResolveConfigPath("mine.yaml", dir))
	c, err := LoadFile(ResolveConfigPath("mine", dir), nil)
	require.NoError(t, err)
	assert.Equal(t, 7, c.Iterations)
}
