package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"

	"github.com/gemgo/gemgo/compare"
	"github.com/gemgo/gemgo/internal/cli"
	"github.com/gemgo/gemgo/train"
)

const sweep = `
name: cmdtest
base:
  iterations: 2
  model: {layers: 1, d_model: 16, heads: 2, context: 64}
  tokenizer: {corpus_episodes: 20}
  warmup: {steps: 3, batch_size: 8, lr: 0.003}
  env: {num_envs: 8}
  rollout: {episodes: 0, steps: 24}
  algo: {minibatch_size: 16}
  eval: {every: 1, episodes: 8}
arms:
  - name: reinforce
    set: [algo.name=reinforce]
seeds: [1, 2, 3]
`

func TestRun(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sweep.yaml")
	require.NoError(t, os.WriteFile(path, []byte(sweep), 0o644))
	out := filepath.Join(dir, "out")
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"-config", path, "-out", out, "-parallel", "2", "-set", "algo.gamma=0.8"}, &stdout, &stderr)
	require.Equal(t, cli.ExitOK, code, stderr.String())
	assert.Contains(t, stdout.String(), "1 arms × 3 seeds = 3 runs, 2 at once")
	assert.Contains(t, stdout.String(), "final greedy success")
	assert.FileExists(t, filepath.Join(out, "report.html"))
	table, err := os.ReadFile(filepath.Join(out, compare.TableFile))
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(string(table), "| arm | runs | final greedy success |"), string(table))
	assert.Contains(t, string(table), "\n| reinforce | 3 (3 complete) | ")
	var sum compare.Summary
	data, err := os.ReadFile(filepath.Join(out, compare.SummaryFile))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &sum))
	require.Len(t, sum.Arms, 1)
	assert.Equal(t, "reinforce", sum.Arms[0].Arm)
	assert.Equal(t, 3, sum.Arms[0].Complete)
	require.Len(t, sum.Arms[0].PerSeed, 3)
	assert.Equal(t, []uint64{1, 2, 3}, []uint64{sum.Arms[0].PerSeed[0].Seed, sum.Arms[0].PerSeed[1].Seed, sum.Arms[0].PerSeed[2].Seed})
	cfg, err := os.ReadFile(filepath.Join(out, "reinforce", "seed3", "config.yaml"))
	require.NoError(t, err)
	assert.Contains(t, string(cfg), "gamma: 0.8", "-set applies to every run")

	stdout.Reset()
	code = run(context.Background(), []string{"-config", path, "-out", out, "-set", "algo.gamma=0.8"}, &stdout, &stderr)
	require.Equal(t, cli.ExitOK, code, stderr.String())
	assert.Equal(t, 3, strings.Count(stdout.String(), "skipped (already finished)"))

	// Another -set is another config: the old runs are not reused.
	stdout.Reset()
	stderr.Reset()
	code = run(context.Background(), []string{"-config", path, "-out", out}, &stdout, &stderr)
	assert.Equal(t, cli.ExitFailed, code)
	assert.Contains(t, stdout.String(), "another config")
	page, err := os.ReadFile(filepath.Join(out, "report.html"))
	require.NoError(t, err)
	assert.Contains(t, string(page), "ran with a config that differs from the sweep file now", "the report shows what ran")
	assert.Contains(t, string(page), "gamma: 0.8")

	// Interrupted before any run starts: exit 130 and a hint.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	stderr.Reset()
	code = run(ctx, []string{"-config", path, "-out", filepath.Join(dir, "out2")}, &stdout, &stderr)
	assert.Equal(t, cli.ExitInterrupted, code)
	assert.Contains(t, stderr.String(), "run the same command again")
	assert.NotContains(t, stdout.String(), "caution", "the sweep's settings draw none")

	// Nucleus sampling in training: one caution for the arm, not one a
	// seed, printed before the runs start.
	stdout.Reset()
	code = run(ctx, []string{"-config", path, "-out", filepath.Join(dir, "out3"), "-set", "sample.top_p=0.9"}, &stdout, &stderr)
	assert.Equal(t, cli.ExitInterrupted, code)
	assert.Equal(t, 1, strings.Count(stdout.String(), "caution (arm reinforce): sample.top_p = 0.9:"), stdout.String())
}

func TestRunUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "give a sweep with -config"},
		{[]string{"-config", "no_such_sweep"}, "no such file"},
		{[]string{"-bogus"}, "flag provided but not defined"},
		{[]string{"-config", "x", "extra"}, `unexpected argument "extra"`},
	} {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), tc.args, &stdout, &stderr)
		assert.Equal(t, cli.ExitUsage, code, tc.args)
		assert.Contains(t, stderr.String(), tc.want, tc.args)
	}
}

func TestHelpAndPrintConfig(t *testing.T) {
	var stdout, stderr bytes.Buffer
	assert.Equal(t, cli.ExitOK, run(context.Background(), []string{"-h"}, &stdout, &stderr), stderr.String())
	assert.Contains(t, stdout.String(), "-print-config")

	dir := t.TempDir()
	path := filepath.Join(dir, "sweep.yaml")
	require.NoError(t, os.WriteFile(path, []byte(sweep), 0o644))
	out := filepath.Join(dir, "out")
	stdout.Reset()
	code := run(context.Background(), []string{"-config", path, "-out", out, "-set", "algo.gamma=0.8", "-print-config"}, &stdout, &stderr)
	require.Equal(t, cli.ExitOK, code, stderr.String())
	var doc struct {
		Name  string   `yaml:"name"`
		Seeds []uint64 `yaml:"seeds"`
		Arms  []struct {
			Name   string    `yaml:"name"`
			Config yaml.Node `yaml:"config"`
		} `yaml:"arms"`
	}
	require.NoError(t, yaml.Unmarshal(stdout.Bytes(), &doc), stdout.String())
	assert.Equal(t, "cmdtest", doc.Name)
	assert.Equal(t, []uint64{1, 2, 3}, doc.Seeds)
	require.Len(t, doc.Arms, 1)
	assert.Equal(t, "reinforce", doc.Arms[0].Name)
	cfgYAML, err := yaml.Marshal(&doc.Arms[0].Config)
	require.NoError(t, err)
	cfg, err := train.Parse(cfgYAML, nil)
	require.NoError(t, err, "each arm's config is a whole training config")
	assert.Equal(t, "reinforce", cfg.Algo.Name)
	assert.Equal(t, 0.8, cfg.Algo.Gamma, "the -set overrides are applied")
	assert.Equal(t, 2, cfg.Iterations, "the base is applied")
	assert.NoDirExists(t, out, "nothing runs")
}

// A -set key past a leaf or into an option, by -set or by an arm's set:,
// is one clear line and exit status 2, never a panic; nothing is run.
func TestSetPastALeaf(t *testing.T) {
	dir := t.TempDir()
	for _, key := range []string{"algo.gamma.x=3", "iterations.x=1", "env.options.foo.bar=1"} {
		want := map[string]string{"algo.gamma.x=3": "algo.gamma is a value, not a section",
			"iterations.x=1": "iterations is a value, not a section", "env.options.foo.bar=1": "env.options.foo is one option"}[key]
		sweepPath := filepath.Join(dir, "sweep.yaml")
		require.NoError(t, os.WriteFile(sweepPath, []byte(sweep), 0o644))
		armPath := filepath.Join(dir, "arm.yaml")
		require.NoError(t, os.WriteFile(armPath, []byte(strings.Replace(sweep, "[algo.name=reinforce]", "[algo.name=reinforce, "+key+"]", 1)), 0o644))
		for name, args := range map[string][]string{
			"-set":      {"-config", sweepPath, "-set", key},
			"arm set:":  {"-config", armPath},
			"-set+tree": {"-config", sweepPath, "-set", key, "-print-config"},
		} {
			out := filepath.Join(dir, "out")
			var stdout, stderr bytes.Buffer
			var code int
			require.NotPanics(t, func() { code = run(context.Background(), append(args, "-out", out), &stdout, &stderr) }, "%s %s", name, key)
			assert.Equal(t, cli.ExitUsage, code, "%s %s: %s", name, key, stderr.String())
			assert.Contains(t, stderr.String(), want, "%s %s", name, key)
			assert.Equal(t, 1, strings.Count(strings.TrimSpace(stderr.String()), "\n")+1, "one line: %q", stderr.String())
			assert.NoDirExists(t, out, "nothing ran")
		}
	}
}

// Every shipped sweep loads strictly and plans (its arms comparable, each
// run's config valid), and -print-config shows share_warmup where a sweep
// sets it.
func TestShippedSweeps(t *testing.T) {
	paths, err := filepath.Glob("../../configs/compare_*.yaml")
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(paths), 7)
	shared := 0
	for _, p := range paths {
		t.Run(filepath.Base(p), func(t *testing.T) {
			spec, err := compare.LoadSpec(p, "../../configs")
			require.NoError(t, err)
			runs, err := spec.Plan(t.TempDir(), nil)
			require.NoError(t, err)
			assert.Len(t, runs, len(spec.Arms)*len(spec.Seeds))
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), []string{"-config", p, "-out", t.TempDir(), "-print-config"}, &stdout, &stderr)
			require.Equal(t, cli.ExitOK, code, stderr.String())
			assert.Equal(t, spec.ShareWarmup, strings.Contains(stdout.String(), "\nshare_warmup: true\n"))
			if spec.ShareWarmup {
				shared++
				assert.NotEmpty(t, runs[0].Warmup)
			}
		})
	}
	assert.GreaterOrEqual(t, shared, 1, "compare_mastermind shares its warm-ups")
}
