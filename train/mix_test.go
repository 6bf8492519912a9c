package train

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/builtin"
	"github.com/gemgo/gemgo/metrics"
	"github.com/gemgo/gemgo/policy"
)

// pickEnv is a pure function of the seed, and over many seeds each entry
// plays its weight's share of the episodes.
func TestPickEnv(t *testing.T) {
	cum := cumulative([]MixEntry{{Weight: 1}, {Weight: 3}})
	assert.Equal(t, []float64{1, 4}, cum)
	const n = 20000
	count := [2]int{}
	for s := range uint64(n) {
		seed := envs.EpisodeSeed(7, int(s/128), int(s%128))
		i := pickEnv(cum, seed)
		require.Equal(t, i, pickEnv(cum, seed), "the same seed picks the same env")
		count[i]++
	}
	// binomial sd of the share: sqrt(0.25·0.75/20000) ≈ 0.003
	assert.InDelta(t, 0.25, float64(count[0])/n, 0.015, "weight 1 of 4")
	assert.Equal(t, 0, pickEnv([]float64{2}, 12345), "one entry always plays")
}

// mixConfig is tinyConfig on a mixture of GuessTheNumber-easy and
// count_bits (weights 1 and 1), evaluated on both.
func mixConfig(t *testing.T) Config {
	t.Helper()
	c := tinyConfig("rebn")
	c.Env.ID, c.Env.Options = "", nil
	c.Env.History = envs.HistoryNone
	c.Env.Mix = []MixEntry{
		{ID: "game:GuessTheNumber-v0-easy", Name: "guess", Weight: 1, Options: EnvOptions{"style": "brief"}},
		{ID: "rg:count_bits", Weight: 1, Options: EnvOptions{"style": "brief", "bits": 4}},
	}
	c.Rollout.Episodes = 16
	c.Env.NumEnvs = 8
	require.NoError(t, c.Validate())
	return c
}

func TestMixConfigErrors(t *testing.T) {
	mix := "env:\n  mix:\n    - {id: \"game:GuessTheNumber-v0-easy\", weight: 1}\n    - {id: \"rg:count_bits\", weight: 2}\n"
	// a file's env.mix replaces the id and options it is decoded over
	c, err := Parse([]byte(mix), nil)
	require.NoError(t, err)
	assert.Empty(t, c.Env.ID)
	assert.Empty(t, c.Env.Options)
	assert.Equal(t, "mix: game:GuessTheNumber-v0-easy (1) + rg:count_bits (2)", c.EnvLabel())
	assert.Equal(t, []string{"game:GuessTheNumber-v0-easy", "rg:count_bits"}, c.MixNames())
	// -set env.id on a mixture trains on that env alone
	c, err = Parse([]byte(mix), []string{"env.id=rg:count_bits"})
	require.NoError(t, err)
	assert.Nil(t, c.Env.Mix)

	for _, tc := range []struct {
		name, yaml string
		sets       []string
		want       []string
	}{
		{"both", "env:\n  id: rg:count_bits\n  mix: [{id: rg:gcd, weight: 1}]\n", nil,
			[]string{`env.id = "rg:count_bits" and env.mix (1 entries) are both set`}},
		{"neither", "env: {id: \"\"}\n", nil, []string{"env.id is empty", "env.mix"}},
		{"weight", "env:\n  mix: [{id: rg:gcd, weight: 0}, {id: rg:count_bits, weight: -1}]\n", nil,
			[]string{"env.mix[0].weight = 0: must be a finite number > 0", "env.mix[1].weight = -1"}},
		{"duplicate", "env:\n  mix: [{id: rg:gcd, weight: 1}, {id: rg:gcd, weight: 1}]\n", nil,
			[]string{`env.mix[0] and env.mix[1] are both named "rg:gcd"`}},
		{"options", "env:\n  mix: [{id: rg:gcd, weight: 1}]\n  options: {style: brief}\n", nil,
			[]string{"env.options is set with env.mix"}},
		{"history", "env:\n  mix: [{id: rg:gcd, weight: 1, history: all}]\n", nil,
			[]string{`env.mix[0].history = "all"`}},
		{"no id", "env:\n  mix: [{weight: 1}]\n", nil, []string{"env.mix[0].id is empty"}},
		{"slash", "env:\n  mix: [{id: rg:gcd, name: a/b, weight: 1}]\n", nil, []string{`env.mix[0].name = "a/b": must be non-empty with no '/'`}},
		{"eval envs", "eval:\n  options: {split: test}\n  envs: [{id: rg:gcd}, {id: rg:gcd}]\n", nil,
			[]string{"eval.options is set with eval.envs", `eval.envs[0] and eval.envs[1] are both named "rg:gcd"`}},
		{"unknown key", "env:\n  mix: [{id: rg:gcd, weight: 1, wieght: 2}]\n", nil, []string{"wieght"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.yaml), tc.sets)
			require.Error(t, err)
			for _, w := range tc.want {
				assert.Contains(t, err.Error(), w)
			}
		})
	}
}

// A mixture run: every iteration's per-env episodes are those pickEnv
// draws from the iteration's seeds and add up to the batch, the
// evaluation plays both envs on the held-out seeds (the unsuffixed
// figures are their mean), the vocabulary holds both envs' text, and the
// same config gives the same numbers twice.
func TestMixRun(t *testing.T) {
	if testing.Short() {
		t.Skip("trains a tiny model twice")
	}
	cfg := mixConfig(t)
	run := func() (*recordObserver, string) {
		obs := &recordObserver{}
		dir := filepath.Join(t.TempDir(), "run")
		_, err := Run(context.Background(), cfg, builtin.Registry(), Options{Dir: dir, Observer: obs})
		require.NoError(t, err)
		return obs, dir
	}
	obs, dir := run()
	cum := cumulative(cfg.Env.Mix)
	for i, m := range obs.iters {
		it := i + 1
		want := map[string]float64{}
		for g := range cfg.Rollout.Episodes {
			want[[]string{"guess", "rg:count_bits"}[pickEnv(cum, envs.EpisodeSeed(cfg.Seed, it, g))]]++
		}
		for name, n := range want {
			assert.Equal(t, n, m["charts/episodes/"+name], "iteration %d: episodes of %s", it, name)
		}
		assert.Equal(t, m["charts/episodes"], m["charts/episodes/guess"]+m["charts/episodes/rg:count_bits"])
		assert.Positive(t, want["guess"]*want["rg:count_bits"], "iteration %d plays both envs", it)
	}
	require.Len(t, obs.evals, 3) // iterations 0, 2 and 4
	for _, e := range obs.evals {
		require.Len(t, e.PerEnv, 2)
		assert.Equal(t, []string{"guess", "rg:count_bits"}, []string{e.PerEnv[0].Name, e.PerEnv[1].Name})
		assert.InDelta(t, (e.PerEnv[0].SuccessRate+e.PerEnv[1].SuccessRate)/2, e.SuccessRate, 1e-12)
		assert.InDelta(t, (e.PerEnv[0].SampledSuccessRate+e.PerEnv[1].SampledSuccessRate)/2, e.SampledSuccessRate, 1e-12)
		assert.Equal(t, cfg.Eval.Episodes, e.Episodes)
	}
	rows, err := metrics.ReadJSONL(filepath.Join(dir, metrics.JSONLName))
	require.NoError(t, err)
	last := rows[len(rows)-1].Metrics
	for _, k := range []string{"eval/success_rate/guess", "eval/sampled_success_rate/rg:count_bits", "charts/success_rate/guess"} {
		assert.Contains(t, last, k)
	}
	ck, err := policy.LoadCheckpoint(filepath.Join(dir, FinalFile))
	require.NoError(t, err)
	var pieces []string
	for id := policy.FirstPieceID; id < ck.Tokenizer.VocabSize(); id++ {
		pieces = append(pieces, ck.Tokenizer.TokenString(id))
	}
	for _, word := range []string{"lower", "binary"} { // a GuessTheNumber hint, a count_bits question
		assert.Contains(t, strings.Join(pieces, "|"), word, "the vocabulary holds both envs' words")
	}
	again, _ := run()
	assert.Equal(t, stable(obs.iters), stable(again.iters), "the same config and seed give the same numbers")
}

// Random play that meets no episode of an entry refuses to build the
// vocabulary without it.
func TestMixCoverage(t *testing.T) {
	cfg := mixConfig(t)
	cfg.Env.Mix[1].Weight = 1e-9
	_, err := Run(context.Background(), cfg, builtin.Registry(), Options{Dir: filepath.Join(t.TempDir(), "run")})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "met no episode of env.mix[1] (rg:count_bits) in 20 episodes")
	assert.Contains(t, err.Error(), "tokenizer.corpus_episodes")
}

// eval.envs on a single-env run evaluates the listed envs, each under
// its name, and leaves the training metrics as they are.
func TestEvalEnvs(t *testing.T) {
	if testing.Short() {
		t.Skip("trains a tiny model")
	}
	cfg := tinyConfig("rebn")
	cfg.Eval.Envs = []EvalEnvConfig{
		{ID: "game:GuessTheNumber-v0-easy", Name: "easy", Options: EnvOptions{"style": "brief", "partial_credit": false}},
		{ID: "game:GuessTheNumber-v0-easy", Name: "wide", Options: EnvOptions{"style": "brief", "partial_credit": false, "max": 20}},
	}
	require.NoError(t, cfg.Validate())
	obs := &recordObserver{}
	_, err := Run(context.Background(), cfg, builtin.Registry(), Options{Dir: filepath.Join(t.TempDir(), "run"), Observer: obs})
	require.NoError(t, err)
	plain := &recordObserver{}
	single := tinyConfig("rebn")
	_, err = Run(context.Background(), single, builtin.Registry(), Options{Dir: filepath.Join(t.TempDir(), "run"), Observer: plain})
	require.NoError(t, err)
	require.Len(t, obs.evals, len(plain.evals))
	for i, e := range obs.evals {
		require.Len(t, e.PerEnv, 2)
		// the env trained on, evaluated under the name easy, scores as
		// the single-env run's own evaluation
		assert.Equal(t, plain.evals[i].SuccessRate, e.PerEnv[0].SuccessRate)
		assert.Equal(t, plain.evals[i].SampledSuccessRate, e.PerEnv[0].SampledSuccessRate)
	}
	for i := range obs.iters {
		assert.Equal(t, plain.iters[i]["charts/success_rate"], obs.iters[i]["charts/success_rate"], "evaluation draws nothing from training")
	}
	// a bad eval env fails before the run starts
	cfg.Eval.Envs[1].Options = EnvOptions{"no_such_option": 1}
	_, err = Run(context.Background(), cfg, builtin.Registry(), Options{Dir: filepath.Join(t.TempDir(), "run")})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "eval.envs[1] (wide)")
}
