package compare

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/envs/builtin"
	"github.com/gemgo/gemgo/metrics"
	"github.com/gemgo/gemgo/policy"
	"github.com/gemgo/gemgo/train"
)

// deterministicRows is a run's metrics.jsonl without the timings, which
// differ between any two runs.
func deterministicRows(t *testing.T, dir string) []metrics.Row {
	t.Helper()
	rows, err := metrics.ReadJSONL(filepath.Join(dir, metrics.JSONLName))
	require.NoError(t, err)
	for _, r := range rows {
		for k := range r.Metrics {
			if strings.HasPrefix(k, "perf/") || strings.HasSuffix(k, "wall_s") {
				delete(r.Metrics, k)
			}
		}
	}
	return rows
}

// sameRun requires the run in dir b to be the one in dir a to the bit:
// every metric but the timings, the final weights, the tokenizer and
// config.yaml.
func sameRun(t *testing.T, a, b, what string) {
	t.Helper()
	assert.Equal(t, deterministicRows(t, a), deterministicRows(t, b), "%s: metrics", what)
	ca, err := policy.LoadCheckpoint(filepath.Join(a, train.FinalFile))
	require.NoError(t, err)
	cb, err := policy.LoadCheckpoint(filepath.Join(b, train.FinalFile))
	require.NoError(t, err)
	assert.Equal(t, ca.Policy, cb.Policy, "%s: final weights", what)
	assert.Equal(t, ca.Tokenizer, cb.Tokenizer, "%s: tokenizer", what)
	ya, err := os.ReadFile(filepath.Join(a, train.ConfigFile))
	require.NoError(t, err)
	yb, err := os.ReadFile(filepath.Join(b, train.ConfigFile))
	require.NoError(t, err)
	assert.Equal(t, string(ya), string(yb), "%s: config.yaml", what)
}

// TestSharedWarmupSameRuns runs the tiny sweep twice, with a warm-up per
// run and with one warm-up per seed shared by both arms, and requires the
// same runs to the bit; then a run started from a shared warm-up,
// stopped in the middle and resumed, is the same run too.
func TestSharedWarmupSameRuns(t *testing.T) {
	spec, err := ParseSpec([]byte(tinySweep))
	require.NoError(t, err)
	reg := builtin.Registry()
	own, err := spec.Plan(t.TempDir(), nil)
	require.NoError(t, err)
	_, err = Execute(context.Background(), own, ExecOptions{Parallel: 2, Registry: reg})
	require.NoError(t, err)

	spec.ShareWarmup = true
	out := t.TempDir()
	shared, err := spec.Plan(out, nil)
	require.NoError(t, err)
	// Two at once: grpo's seed k may start while rebn's is in its
	// warm-up, and then waits for it.
	done, err := Execute(context.Background(), shared, ExecOptions{Parallel: 2, Registry: reg})
	require.NoError(t, err)
	for i, r := range shared {
		assert.Equal(t, SharedWarmupPath(out, r.Seed), r.Warmup)
		assert.FileExists(t, r.Warmup)
		assert.Equal(t, Finished, done[i].Outcome)
		assert.Equal(t, r.Arm == "grpo", done[i].SharedWarmup, "%s seed %d: only grpo starts from the shared warm-up", r.Arm, r.Seed)
		sameRun(t, own[i].Dir, r.Dir, fmt.Sprintf("%s seed %d", r.Arm, r.Seed))
	}

	// grpo seed 2 again in another directory, from the same shared
	// warm-up: stopped after its first iteration (as Ctrl-C would), then
	// run again.
	out2 := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(out2, WarmupsDir), 0o755))
	for _, seed := range spec.Seeds {
		data, err := os.ReadFile(SharedWarmupPath(out, seed))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(SharedWarmupPath(out2, seed), data, 0o644))
	}
	again, err := spec.Plan(out2, nil)
	require.NoError(t, err)
	grpo2 := again[4:5]
	require.Equal(t, "grpo", grpo2[0].Arm)
	require.Equal(t, uint64(2), grpo2[0].Seed)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done, err = Execute(ctx, grpo2, ExecOptions{Registry: reg, Log: cancelOn{want: "it 1/2", cancel: cancel}})
	require.ErrorIs(t, err, train.ErrInterrupted)
	assert.Equal(t, Interrupted, done[0].Outcome)
	assert.True(t, done[0].SharedWarmup)
	assert.Equal(t, 1, LoadRun(grpo2[0]).Iterations)
	done, err = Execute(context.Background(), grpo2, ExecOptions{Registry: reg})
	require.NoError(t, err)
	assert.Equal(t, Resumed, done[0].Outcome)
	sameRun(t, own[4].Dir, grpo2[0].Dir, "grpo seed 2, resumed")

	// A shared warm-up of other settings is refused, naming them.
	other, err := spec.Plan(out2, []string{"warmup.lr=0.002"})
	require.NoError(t, err)
	done, err = Execute(context.Background(), other[:1], ExecOptions{Registry: reg})
	require.Error(t, err)
	assert.Equal(t, Failed, done[0].Outcome)
	assert.ErrorContains(t, done[0].Err, "warmup.lr (0.003 vs 0.002)")
	assert.ErrorContains(t, done[0].Err, "delete it")
}

func TestPlanShareWarmup(t *testing.T) {
	withArmSet := func(set string) Spec {
		src := strings.Replace(tinySweep, "set: [algo.name=grpo, rollout.group_size=4]",
			"set: [algo.name=grpo, rollout.group_size=4, "+set+"]", 1)
		spec, err := ParseSpec([]byte(src + "share_warmup: true\n"))
		require.NoError(t, err)
		return spec
	}
	// The answer length bounds the warm-up's prompts: not shareable.
	spec := withArmSet("sample.max_new_tokens=6")
	_, err := spec.Plan(t.TempDir(), nil)
	assert.ErrorContains(t, err, "share_warmup needs")
	assert.ErrorContains(t, err, "sample.max_new_tokens")
	spec.ShareWarmup = false
	_, err = spec.Plan(t.TempDir(), nil)
	assert.NoError(t, err, "without sharing the arms may differ there")

	// What only RL reads may differ.
	for _, set := range []string{"sample.temperature=1.2", "loss.kl_coef=0.1", "optim.lr=0.01", "algo.gamma=0.5"} {
		spec = withArmSet(set)
		runs, err := spec.Plan(t.TempDir(), nil)
		assert.NoError(t, err, set)
		assert.Len(t, runs, 6, set)
	}

	// Nothing to share.
	spec = withArmSet("algo.gamma=0.5")
	_, err = spec.Plan(t.TempDir(), []string{"warmup.steps=0"})
	assert.ErrorContains(t, err, "no warm-up to share")
	_, err = spec.Plan(t.TempDir(), []string{"eval.episodes=0"})
	assert.ErrorContains(t, err, "eval.episodes = 0")
}
