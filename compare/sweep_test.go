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
	"github.com/gemgo/gemgo/train"
)

// tinySweep is two arms × three seeds of a model that trains in about a
// second per run.
const tinySweep = `
name: tiny
base:
  iterations: 2
  model: {layers: 1, d_model: 16, heads: 2, context: 64}
  tokenizer: {corpus_episodes: 20}
  warmup: {steps: 3, batch_size: 8, lr: 0.003}
  env: {num_envs: 8}
  rollout: {episodes: 0, steps: 24}
  algo: {minibatch_size: 16}
  eval: {every: 1, episodes: 8}
  checkpoint: {every: 1}
arms:
  - name: rebn
    set: [algo.name=rebn]
  - name: grpo
    set: [algo.name=grpo, rollout.group_size=4]
seeds: [1, 2, 3]
threshold: 0.3
`

func TestSweepEndToEnd(t *testing.T) {
	spec, err := ParseSpec([]byte(tinySweep))
	require.NoError(t, err)
	out := t.TempDir()
	runs, err := spec.Plan(out, nil)
	require.NoError(t, err)
	require.Len(t, runs, 6)
	assert.Equal(t, filepath.Join(out, "grpo", "seed2"), runs[4].Dir)
	assert.Equal(t, uint64(2), runs[4].Cfg.Seed)
	assert.Equal(t, 4, runs[4].Cfg.Rollout.GroupSize)
	assert.Equal(t, "grpo", runs[4].Cfg.Algo.Name)

	reg := builtin.Registry()
	done, err := Execute(context.Background(), runs, ExecOptions{Parallel: 2, Registry: reg})
	require.NoError(t, err)
	for _, d := range done {
		require.Equal(t, Finished, d.Outcome, "%s seed %d: %v", d.Run.Arm, d.Run.Seed, d.Err)
	}

	report := filepath.Join(out, ReportFile)
	loaded := Load(spec, runs)
	require.NoError(t, WriteReport(report, loaded))
	page, err := os.ReadFile(report)
	require.NoError(t, err)
	for _, arm := range []string{"rebn (3 seeds)", "grpo (3 seeds)"} {
		assert.Contains(t, string(page), arm)
	}
	assert.Contains(t, string(page), "rollout.group_size", "the arms' differences are listed")
	sums := loaded.Sums
	require.Len(t, sums, 2)
	for _, s := range sums {
		assert.Equal(t, 3, s.Runs, s.Arm)
		assert.Equal(t, 3, s.Complete, s.Arm)
		assert.Equal(t, 3, s.Final.N, s.Arm)
		assert.True(t, s.Final.Mean >= 0 && s.Final.Mean <= 1)
		assert.True(t, s.Wall.Mean > 0)
	}
	d := LoadRun(runs[0])
	require.NoError(t, d.Err)
	assert.Equal(t, []float64{0}, d.Success.X[:1], "the evaluation before training sits at 0 env steps")
	assert.Len(t, d.Success.X, 3, "evaluations at iterations 0, 1, 2")
	assert.GreaterOrEqual(t, d.Success.X[2], 48.0, "two iterations of at least 24 env steps")

	// A second pass skips every finished run and leaves its files alone.
	metricsFile := filepath.Join(runs[0].Dir, "metrics.jsonl")
	before, err := os.Stat(metricsFile)
	require.NoError(t, err)
	done, err = Execute(context.Background(), runs, ExecOptions{Parallel: 2, Registry: reg})
	require.NoError(t, err)
	for _, d := range done {
		assert.Equal(t, Skipped, d.Outcome)
	}
	after, err := os.Stat(metricsFile)
	require.NoError(t, err)
	assert.Equal(t, before.ModTime(), after.ModTime())

	// A run whose final weights are missing (killed at the very end) is
	// resumed from its checkpoint, not redone.
	require.NoError(t, os.Remove(filepath.Join(runs[1].Dir, train.FinalFile)))
	st, err := State(runs[1])
	require.NoError(t, err)
	assert.Equal(t, Partial, st)
	done, err = Execute(context.Background(), runs[:2], ExecOptions{Parallel: 1, Registry: reg})
	require.NoError(t, err)
	assert.Equal(t, Skipped, done[0].Outcome)
	assert.Equal(t, Resumed, done[1].Outcome)
	assert.FileExists(t, filepath.Join(runs[1].Dir, train.FinalFile))

	// A run stopped in its warm-up (config.yaml and warmup.safetensors) is
	// resumed too.
	warm := runs[2]
	warm.Dir = filepath.Join(t.TempDir(), "warm")
	require.NoError(t, os.MkdirAll(warm.Dir, 0o755))
	cfgYAML, err := os.ReadFile(filepath.Join(runs[2].Dir, train.ConfigFile))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(warm.Dir, train.ConfigFile), cfgYAML, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(warm.Dir, train.WarmupFile), nil, 0o644))
	st, err = State(warm)
	require.NoError(t, err)
	assert.Equal(t, Partial, st)

	// A directory holding a run of another config is neither resumed nor
	// counted.
	other := runs[2]
	other.Cfg.Optim.LR *= 2
	_, err = State(other)
	assert.ErrorContains(t, err, "another config")
	done, err = Execute(context.Background(), []Run{other}, ExecOptions{Registry: reg})
	require.Error(t, err)
	assert.Equal(t, Failed, done[0].Outcome)
}

func TestExecuteCancelled(t *testing.T) {
	spec, err := ParseSpec([]byte(tinySweep))
	require.NoError(t, err)
	runs, err := spec.Plan(t.TempDir(), nil)
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	done, err := Execute(ctx, runs, ExecOptions{Parallel: 2})
	require.ErrorIs(t, err, train.ErrInterrupted)
	assert.ErrorContains(t, err, "run the same command again")
	for _, d := range done {
		assert.Equal(t, Interrupted, d.Outcome)
		_, statErr := os.Stat(filepath.Join(d.Run.Dir, train.CheckpointFile))
		assert.True(t, os.IsNotExist(statErr), "no run started")
	}
}

func TestPlanHoldsEqual(t *testing.T) {
	for _, tc := range []struct {
		name, set, want string
	}{
		{"model", "model.d_model=32", "model differs"},
		{"budget", "rollout.steps=48", "rollout.steps differs"},
		{"eval seeds", "eval.seed_base=7", "eval differs"},
		{"env", "env.id=game:GuessTheNumber-v0-hard", "env differs"},
		{"iterations", "iterations=3", "iterations differs"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := strings.Replace(tinySweep, "set: [algo.name=grpo, rollout.group_size=4]",
				"set: [algo.name=grpo, rollout.group_size=4, "+tc.set+"]", 1)
			spec, err := ParseSpec([]byte(src))
			require.NoError(t, err)
			_, err = spec.Plan(t.TempDir(), nil)
			assert.ErrorContains(t, err, tc.want)
			assert.ErrorContains(t, err, "arms rebn and grpo")
		})
	}
	// The same override for every arm (the sweep's set or -set) is fine.
	spec, err := ParseSpec([]byte(tinySweep))
	require.NoError(t, err)
	runs, err := spec.Plan(t.TempDir(), []string{"model.d_model=32"})
	require.NoError(t, err)
	assert.Equal(t, 32, runs[5].Cfg.Model.DModel)

	// A budget in episodes is refused.
	src := strings.Replace(tinySweep, "rollout: {episodes: 0, steps: 24}", "rollout: {episodes: 8, steps: 0}", 1)
	spec, err = ParseSpec([]byte(src))
	require.NoError(t, err)
	_, err = spec.Plan(t.TempDir(), nil)
	assert.ErrorContains(t, err, "set rollout.steps")

	// An invalid override names the arm.
	_, err = spec.Plan(t.TempDir(), []string{"algo.gamma=2"})
	assert.ErrorContains(t, err, "arm rebn")
	assert.ErrorContains(t, err, "algo.gamma")
}

// cancelOn cancels a context the first time a progress line contains want
// (as Ctrl-C would in the middle of a run).
type cancelOn struct {
	want   string
	cancel context.CancelFunc
}

func (c cancelOn) Write(p []byte) (int, error) {
	if strings.Contains(string(p), c.want) {
		c.cancel()
	}
	return len(p), nil
}

func TestInterruptedRunResumes(t *testing.T) {
	spec, err := ParseSpec([]byte(tinySweep))
	require.NoError(t, err)
	runs, err := spec.Plan(t.TempDir(), nil)
	require.NoError(t, err)
	runs = runs[:1]
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done, err := Execute(ctx, runs, ExecOptions{Log: cancelOn{want: "it 1/2", cancel: cancel}})
	require.ErrorIs(t, err, train.ErrInterrupted)
	require.Equal(t, Interrupted, done[0].Outcome)
	st, err := State(runs[0])
	require.NoError(t, err)
	require.Equal(t, Partial, st, "the interrupted run left a checkpoint")
	assert.Equal(t, 1, LoadRun(runs[0]).Iterations)

	done, err = Execute(context.Background(), runs, ExecOptions{})
	require.NoError(t, err)
	assert.Equal(t, Resumed, done[0].Outcome)
	d := LoadRun(runs[0])
	require.NoError(t, d.Err)
	assert.Equal(t, 2, d.Iterations)
	assert.Len(t, d.Success.X, 3, "evaluations at iterations 0, 1, 2, none repeated")
	// The wall clock continues across the interruption.
	require.Len(t, d.SuccessT.X, 3)
	assert.Greater(t, d.SuccessT.X[2], d.SuccessT.X[1], "wall-clock seconds at iterations 1 and 2")
}
