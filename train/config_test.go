package train

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/algo"
	"github.com/gemgo/gemgo/policy"
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
		{"filter needs groups", "rollout: {filter_groups: true}\n", nil, []string{"rollout.filter_groups = true", "group algorithm", "got rebn"}},
		{"filter needs episodes", "algo: {name: rloo}\nrollout: {filter_groups: true, group_size: 4, episodes: 0, steps: 64}\n", nil, []string{"rollout.filter_groups = true", "rollout.episodes (got 0)"}},
		{"bad max gen batches", "rollout: {max_gen_batches: -1}\n", nil, []string{"rollout.max_gen_batches = -1", "0 means 10"}},
		{"bad random start", "rollout: {random_start: 1.5, random_start_turns: 3}\n", nil, []string{"rollout.random_start = 1.5", "[0, 1]"}},
		{"random start without turns", "rollout: {random_start: 0.5}\n", nil, []string{"rollout.random_start_turns = 0", "[1, 1000]"}},
		{"both budgets", "rollout:\n  steps: 100\n", nil, []string{"rollout.episodes = 64, rollout.steps = 100", "exactly one"}},
		{"bad heads", "model:\n  heads: 5\n", nil, []string{"model.heads = 5", "divide"}},
		{"bad digits", "tokenizer:\n  digits: 9\n", nil, []string{"tokenizer.digits = 9", "[0, 8]"}},
		{"bad history", "env:\n  history: all\n", nil, []string{`env.history = "all"`, "observations"}},
		{"bad temperature", "sample:\n  temperature: -1\n", nil, []string{"sample.temperature"}},
		{"max new tokens", "sample:\n  max_new_tokens: 500\n", nil, []string{"sample.max_new_tokens = 500"}},
		{"no room for the prompt", "sample:\n  max_new_tokens: 127\n", nil, []string{"sample.max_new_tokens = 127", "model.context − 2 = 126"}},
		{"set in a value", "", []string{"iterations.x=1"}, []string{"iterations is a value"}},
		{"set past a section's leaf", "", []string{"algo.gamma.x=3"}, []string{"override algo.gamma.x", "algo.gamma is a value, not a section"}},
		{"set deep past a leaf", "", []string{"algo.gamma.x.y.z=3"}, []string{"algo.gamma is a value, not a section"}},
		{"set into an option", "", []string{"env.options.foo.bar=1"}, []string{"env.options.foo is one option", "env.options.foo={bar: 1}"}},
		{"set into the options", "", []string{"env.options=3"}, []string{"env.options", "map of options"}},
		{"set a huge value", "", []string{"algo.epochs=" + strings.Repeat("9", 100<<10)}, []string{"algo.epochs", "(102400 bytes)"}},
		{"set a huge key", "", []string{strings.Repeat("k", 100<<10) + "=1"}, []string{"no config key is that long"}},
		{"bad loss kind", "loss: {kind: ppo}\n", nil, []string{`loss.kind = "ppo"`}},
		{"bad epsilon", "algo: {epsilon: -1}\n", nil, []string{"algo.epsilon = -1"}},
		{"long warm-up", "warmup: {steps: 2000000}\n", nil, []string{"warmup.steps = 2000000"}},
		{"bad repeat", "warmup: {repeat: 1}\n", nil, []string{"warmup.repeat = 1", "[0, 0.9]"}},
		{"negative pool", "warmup: {pool: -1}\n", nil, []string{"warmup.pool = -1", "[0, 1000000]"}},
		{"huge pool", "warmup: {pool: 1000001}\n", nil, []string{"warmup.pool = 1000001", "held in memory"}},
		{"bad agg", "loss:\n  agg: mean\n", nil, []string{`loss.agg = "mean"`, "token-mean"}},
		{"reset without kl", "loss:\n  kl_coef: 0\n  kl_reset_every: 10\n", nil, []string{"loss.kl_reset_every = 10", "kl_coef"}},
		{"negative reset", "loss:\n  kl_coef: 0.1\n  kl_reset_every: -1\n", nil, []string{"loss.kl_reset_every = -1", "≥ 0"}},
		{"removed total_steps", "iterations: 10\noptim: {lr: 0.003, total_steps: 10800}\n", nil, []string{`line 2: key "total_steps" in section optim was removed`, "follows iterations", "delete the key"}},
		{"set removed total_steps", "", []string{"optim.total_steps=10"}, []string{`key "total_steps" in section optim was removed`, "delete the key"}},
		{"set unknown", "", []string{"algo.gama=0.5"}, []string{`unknown key "gama"`, "section algo", "gamma"}},
		{"set section", "", []string{"algo=1"}, []string{"is a section"}},
		{"set bad value", "", []string{"algo.epochs=many"}, []string{"algo.epochs", "whole number"}},
		{"set no equals", "", []string{"algo.epochs"}, []string{"want key=value"}},
		{"set validates", "", []string{"algo.gamma=2"}, []string{"algo.gamma = 2"}},
		{"not yaml", "algo: [\n", nil, []string{"YAML"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var err error
			require.NotPanics(t, func() { _, err = Parse([]byte(c.yaml), c.sets) })
			require.Error(t, err)
			assert.Less(t, len(err.Error()), 1024, "a short message: %.300s", err)
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
	assert.Equal(t, EnvOptions{"style": "gem", "bits": 4}, c.Env.Options)
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

// The default is the whole-history recipe: configs/rebn_guess_obs.yaml
// resolves to DefaultConfig but for its name.
func TestDefaultConfigIsTheHistoryRecipe(t *testing.T) {
	c, err := LoadFile("../configs/rebn_guess_obs.yaml", []string{"name=" + DefaultConfig().Name})
	require.NoError(t, err)
	assert.Equal(t, DefaultConfig(), c)
}

// A warm-up of the learning rate on the main job validates and reaches
// the optimizer, with or without the cosine decay (which follows the
// iterations, not the steps, so a warm-up longer than the run is no
// conflict: the rate simply never reaches its peak).
func TestWarmupStepsWithCosine(t *testing.T) {
	for _, sets := range [][]string{
		{"optim.warmup_steps=10"},
		{"optim.cosine=true", "optim.warmup_steps=10"},
		{"optim.cosine=false", "optim.warmup_steps=10"},
		{"iterations=2", "optim.warmup_steps=1000"},
	} {
		c, err := LoadFile("../configs/rebn_guess.yaml", sets)
		require.NoError(t, err, "%v", sets)
		oc := c.optimConfig(c.Optim.LR)
		assert.Equal(t, c.Optim.WarmupSteps, oc.WarmupSteps)
		assert.Zero(t, oc.TotalSteps, "no decay by optimizer steps: the run decays by iteration")
	}
}

// Settings of the lower packages that a config could not reach before are
// keys now, and reach the objects the run builds.
func TestOwnedSettingsReachTheRun(t *testing.T) {
	c, err := Parse([]byte("loss: {kind: pg, norm_len: 16}\noptim: {beta1: 0.8, beta2: 0.99, eps: 1e-6, warmup_steps: 5}\n"),
		[]string{"algo.epsilon=0.001", "sample.top_p=0.9"})
	require.NoError(t, err)
	assert.Equal(t, algo.PG, c.Loss.Kind)
	assert.Equal(t, 16, c.Loss.NormLen)
	oc := c.optimConfig(c.Optim.LR)
	assert.Equal(t, 0.8, oc.Beta1)
	assert.Equal(t, 0.99, oc.Beta2)
	assert.Equal(t, 1e-6, oc.Eps)
	assert.Equal(t, 5, oc.WarmupSteps)
	a, err := algo.New(c.Algo, algo.Deps{Loss: c.lossConfig(), Reference: nopReference{}})
	require.NoError(t, err)
	require.IsType(t, &algo.ReBN{}, a, "the algorithm reads algo.epsilon from c.Algo itself")
	assert.Equal(t, 0.001, c.Algo.Epsilon)
	assert.Equal(t, algo.PG, c.lossConfig().Kind)
	assert.Equal(t, 16, c.lossConfig().NormLen)
	assert.Equal(t, 0.9, c.Sample.TopP)

	_, err = Parse([]byte("loss: {kind: ppo}\n"), nil)
	assert.ErrorContains(t, err, `loss.kind = "ppo"`)
	_, err = Parse(nil, []string{"optim.beta1=1"})
	assert.ErrorContains(t, err, "optim.beta1 = 1")
	_, err = Parse(nil, []string{"model.vocab=10"})
	assert.ErrorContains(t, err, `unknown key "vocab"`, "the vocabulary is the tokenizer's, not a key")
}

// One range for algo.epochs: train accepts exactly what algo accepts.
func TestEpochRangeAgrees(t *testing.T) {
	for _, e := range []int{-1, 0, 1, 2, 100, 101} {
		c := DefaultConfig()
		c.Algo.Epochs = e
		trainErr := c.Validate()
		algoErr := c.Algo.Validate()
		_, newErr := algo.New(c.Algo, algo.Deps{Loss: c.Loss.LossConfig, Reference: nopReference{}})
		assert.Equal(t, algoErr == nil, trainErr == nil, "epochs %d: train %v, algo %v", e, trainErr, algoErr)
		assert.Equal(t, algoErr == nil, newErr == nil, "epochs %d", e)
		assert.Equal(t, e >= 0 && e <= 100, algoErr == nil, "epochs %d", e)
	}
}

type nopReference struct{}

func (nopReference) Evaluate([]policy.Sequence, float64) ([][]float32, [][]float32, error) {
	return nil, nil, nil
}

// A config may start from a base file, resolved relative to itself; the
// file's keys win, its env.options replace the base's, and a loop of
// bases is an error naming the files.
func TestBaseFile(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "sub")
	require.NoError(t, os.MkdirAll(sub, 0o755))
	write := func(p, text string) {
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	}
	write(filepath.Join(dir, "root.yaml"), "iterations: 7\nalgo: {gamma: 0.5, epochs: 3}\nenv: {options: {style: brief, partial_credit: false}}\n")
	write(filepath.Join(sub, "mid.yaml"), "base: ../root.yaml\nalgo: {epochs: 4}\n")
	write(filepath.Join(sub, "leaf.yaml"), "base: mid\nname: leaf\nenv: {id: 'rg:count_bits', options: {bits: 4}}\n")
	c, err := LoadFile(filepath.Join(sub, "leaf.yaml"), []string{"seed=9"})
	require.NoError(t, err)
	assert.Equal(t, 7, c.Iterations, "from root")
	assert.Equal(t, 0.5, c.Algo.Gamma, "from root")
	assert.Equal(t, 4, c.Algo.Epochs, "mid overrides root")
	assert.Equal(t, "leaf", c.Name)
	assert.Equal(t, uint64(9), c.Seed)
	assert.Equal(t, EnvOptions{"bits": 4}, c.Env.Options, "a file's options replace its base's")
	y, err := c.Marshal()
	require.NoError(t, err)
	assert.NotContains(t, "\n"+string(y), "\nbase:", "the resolved config stands alone")

	write(filepath.Join(dir, "a.yaml"), "base: b.yaml\n")
	write(filepath.Join(dir, "b.yaml"), "base: a.yaml\n")
	_, err = LoadFile(filepath.Join(dir, "a.yaml"), nil)
	assert.ErrorContains(t, err, "loops")

	write(filepath.Join(dir, "missing.yaml"), "base: nope.yaml\n")
	_, err = LoadFile(filepath.Join(dir, "missing.yaml"), nil)
	assert.ErrorContains(t, err, "nope.yaml: no such file")

	write(filepath.Join(dir, "typo.yaml"), "base: root.yaml\nalgo: {gama: 1}\n")
	_, err = LoadFile(filepath.Join(dir, "typo.yaml"), nil)
	assert.ErrorContains(t, err, `unknown key "gama" in section algo`)
	write(filepath.Join(dir, "typo2.yaml"), "base: root.yaml\nbsae: x\n")
	_, err = LoadFile(filepath.Join(dir, "typo2.yaml"), nil)
	assert.ErrorContains(t, err, `unknown key "bsae" in the top level`)
	assert.ErrorContains(t, err, "base, checkpoint")
}

// A run saved before the lower packages' settings became keys (its
// config.yaml lacks loss.kind, optim.beta1, algo.epsilon, ...) resumes
// with the same config: the new keys' defaults are what it ran with.
func TestOldConfigLoads(t *testing.T) {
	old, err := LoadFile("testdata/config_before_owned_keys.yaml", nil)
	require.NoError(t, err)
	now, err := LoadFile("../configs/rebn_guess_obs.yaml", []string{"name=rebn_guess", "iterations=30", "eval.every=10", "checkpoint.every=10"})
	require.NoError(t, err)
	assert.Equal(t, now, old)
}

// env.tools decodes strictly into the tools' own specs and is checked by
// the tools package, its errors naming the list item and key.
func TestEnvToolsConfig(t *testing.T) {
	c, err := Parse([]byte("env:\n  id: math:Products-v0\n  tools: [{name: python_tool_no_int_reward, max_uses: 3, timeout: 2s}]\n"), nil)
	require.NoError(t, err)
	require.Len(t, c.Env.Tools, 1)
	assert.Equal(t, "python_tool_no_int_reward", c.Env.Tools[0].Name)
	assert.Equal(t, 3, c.Env.Tools[0].MaxUses)
	assert.Equal(t, 2*time.Second, c.Env.Tools[0].Timeout)

	_, err = Parse([]byte("env:\n  tools: [{name: python, max_usage: 3}]\n"), nil)
	assert.ErrorContains(t, err, "max_usage")
	_, err = Parse([]byte("env:\n  tools: [{name: python, topk: 3}]\n"), nil)
	assert.ErrorContains(t, err, "env.tools[0].topk is a search key")
	c, err = Parse(nil, []string{"env.tools=[{name: search, topk: 2}]"})
	require.NoError(t, err)
	assert.Equal(t, 2, c.Env.Tools[0].TopK)
}

// An empty file is refused (it would silently be a full default run);
// an explicit {} means the defaults.
func TestEmptyConfigFileRefused(t *testing.T) {
	dir := t.TempDir()
	for i, text := range []string{"", "\n\n", "# only a comment\n", "~\n", "null\n"} {
		p := filepath.Join(dir, fmt.Sprintf("empty%d.yaml", i))
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
		_, err := LoadFile(p, nil)
		require.Error(t, err, "%q", text)
		assert.Contains(t, err.Error(), "is empty")
		// As a base, too.
		q := filepath.Join(dir, fmt.Sprintf("child%d.yaml", i))
		require.NoError(t, os.WriteFile(q, []byte(fmt.Sprintf("base: empty%d\niterations: 3\n", i)), 0o644))
		_, err = LoadFile(q, nil)
		assert.ErrorContains(t, err, "is empty", "%q as a base", text)
	}
	p := filepath.Join(dir, "defaults.yaml")
	require.NoError(t, os.WriteFile(p, []byte("{}\n"), 0o644))
	c, err := LoadFile(p, nil)
	require.NoError(t, err)
	assert.Equal(t, DefaultConfig(), c)
}

// eval.options replace env.options' values for the evaluation only; -set
// reaches them one key at a time, as env.options.
func TestEvalOptions(t *testing.T) {
	c, err := Parse([]byte("env:\n  options: {style: brief, split: train}\neval:\n  options: {split: test}\n"), []string{"eval.options.extra=3"})
	require.NoError(t, err)
	assert.Equal(t, EnvOptions{"style": "brief", "split": "train"}, c.Env.Options, "env.options unchanged")
	assert.Equal(t, EnvOptions{"style": "brief", "split": "test", "extra": 3}, c.EvalEnv().Options)
	c.Env.Options["style"] = "gem"
	assert.Equal(t, "gem", c.EvalEnv().Options["style"], "EvalEnv reads env.options as they are now")
	c.EvalEnv().Options["style"] = "x"
	assert.Equal(t, "gem", c.Env.Options["style"], "EvalEnv's options are a copy")

	c, err = Parse([]byte("env:\n  options: {style: brief}\n"), nil)
	require.NoError(t, err)
	assert.Equal(t, c.Env, c.EvalEnv(), "no eval.options: the training env")
	_, err = Parse(nil, []string{"eval.options.split.x=1"})
	assert.ErrorContains(t, err, "eval.options.split is one option")
}

// Nucleus sampling in training (0 < top_p < 1) runs, with a caution that
// names the key and the fix; the default config, top_p 0 or 1 and any
// temperature (the loss trains the tempered policy) have none.
func TestCautions(t *testing.T) {
	assert.Empty(t, DefaultConfig().Cautions())
	for _, set := range []string{"sample.top_p=0", "sample.top_p=1", "sample.temperature=0.7", "sample.temperature=1.3"} {
		c, err := Parse(nil, []string{set})
		require.NoError(t, err)
		assert.Empty(t, c.Cautions(), set)
	}
	for _, p := range []string{"0.9", "0.5"} {
		c, err := Parse(nil, []string{"sample.top_p=" + p})
		require.NoError(t, err, "a caution, not an error")
		require.Len(t, c.Cautions(), 1, p)
		assert.Contains(t, c.Cautions()[0], "sample.top_p = "+p+":")
		assert.Contains(t, c.Cautions()[0], "Leave it at 0 (off) for training")
	}
}

// The update's loss trains the sampled policy: the loss section at
// sample.temperature (0 and 1 both mean 1).
func TestLossConfigTemperature(t *testing.T) {
	for temp, want := range map[string]float64{"0.7": 0.7, "1.3": 1.3, "0": 0, "1": 1} {
		c, err := Parse(nil, []string{"sample.temperature=" + temp, "loss.kl_coef=0.3"})
		require.NoError(t, err)
		lc := c.lossConfig()
		assert.Equal(t, want, lc.Temperature, temp)
		assert.Equal(t, 0.3, lc.KLCoef, "the rest is the loss section's")
		assert.Equal(t, c.Model.Context, lc.NormLen, "loss.norm_len 0 means model.context")
	}
	_, err := Parse([]byte("loss: {temperature: 0.7}\n"), nil)
	assert.Error(t, err, "the temperature has one key, sample.temperature")
}
