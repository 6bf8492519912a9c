package compare

import (
	"context"
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

// TestSharedWarmupSameRuns runs the tiny sweep twice, with a warm-up per
// run and with one warm-up per seed shared by both arms (interrupted in
// the middle and resumed), and requires the same runs to the bit: every
// metric but the timings, every final weight and the tokenizer.
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
	for _, r := range shared {
		assert.Equal(t, SharedWarmupPath(out, r.Seed), r.Warmup)
	}
	// Stopped in grpo's second seed (as Ctrl-C would), then run again.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done, err := Execute(ctx, shared, ExecOptions{Parallel: 2, Registry: reg, Log: cancelOn{want: "[grpo seed2] it 1/2", cancel: cancel}})
	require.ErrorIs(t, err, train.ErrInterrupted)
	assert.Equal(t, Interrupted, done[4].Outcome)
	assert.True(t, done[4].SharedWarmup)
	done, err = Execute(context.Background(), shared, ExecOptions{Parallel: 2, Registry: reg})
	require.NoError(t, err)
	assert.Equal(t, Resumed, done[4].Outcome)

	for i, r := range shared {
		if r.Arm == "grpo" && r.Seed != 2 && done[i].Outcome == Finished {
			assert.True(t, done[i].SharedWarmup, "%s seed %d starts from rebn's warm-up", r.Arm, r.Seed)
		}
		if r.Arm == "rebn" {
			assert.False(t, done[i].SharedWarmup, "rebn seed %d trains the warm-up", r.Seed)
		}
		assert.FileExists(t, r.Warmup)
		assert.Equal(t, deterministicRows(t, own[i].Dir), deterministicRows(t, r.Dir), "%s seed %d: metrics", r.Arm, r.Seed)
		a, err := policy.LoadCheckpoint(filepath.Join(own[i].Dir, train.FinalFile))
		require.NoError(t, err)
		b, err := policy.LoadCheckpoint(filepath.Join(r.Dir, train.FinalFile))
		require.NoError(t, err)
		assert.Equal(t, a.Policy, b.Policy, "%s seed %d: final weights", r.Arm, r.Seed)
		assert.Equal(t, a.Tokenizer, b.Tokenizer, "%s seed %d: tokenizer", r.Arm, r.Seed)
		ca, err := os.ReadFile(filepath.Join(own[i].Dir, train.ConfigFile))
		require.NoError(t, err)
		cb, err := os.ReadFile(filepath.Join(r.Dir, train.ConfigFile))
		require.NoError(t, err)
		assert.Equal(t, string(ca), string(cb), "%s seed %d: config.yaml", r.Arm, r.Seed)
	}

	// A shared warm-up of other settings is refused, naming them.
	out2 := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(out2, WarmupsDir), 0o755))
	data, err := os.ReadFile(SharedWarmupPath(out, 1))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(SharedWarmupPath(out2, 1), data, 0o644))
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
