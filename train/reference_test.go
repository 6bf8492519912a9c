package train

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/envs/builtin"
	"github.com/gemgo/gemgo/policy"
)

func resetConfig() Config {
	cfg := tinyConfig("rebn")
	cfg.Loss.KLCoef = 0.1
	cfg.Loss.KLResetEvery = 2
	return cfg
}

// runUntil trains cfg in dir and interrupts it after iteration stop.
func runUntil(t *testing.T, cfg Config, dir string, stop int) *recordObserver {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	o := &recordObserver{cancelAfter: stop, cancel: cancel}
	_, err := Run(ctx, cfg, builtin.Registry(), Options{Dir: dir, Observer: o})
	require.ErrorIs(t, err, ErrInterrupted)
	return o
}

func referenceIteration(t *testing.T, dir string) string {
	t.Helper()
	ck, err := policy.LoadCheckpoint(filepath.Join(dir, ReferenceFile))
	require.NoError(t, err)
	return ck.Meta[refIterationKey]
}

func TestReferenceResets(t *testing.T) {
	cfg := resetConfig()
	reg := builtin.Registry()
	full := &recordObserver{}
	dirA := filepath.Join(t.TempDir(), "a")
	_, err := Run(context.Background(), cfg, reg, Options{Dir: dirA, Observer: full})
	require.NoError(t, err)
	assert.Equal(t, "2", referenceIteration(t, dirA), "moved after iteration 2, not after the last (4)")

	// The reference of iteration 2 is the policy of iteration 2's checkpoint.
	dirR := filepath.Join(t.TempDir(), "r")
	runUntil(t, cfg, dirR, 2)
	ref, err := policy.LoadCheckpoint(filepath.Join(dirR, ReferenceFile))
	require.NoError(t, err)
	ck, err := policy.LoadCheckpoint(filepath.Join(dirR, CheckpointFile))
	require.NoError(t, err)
	requireSameParams(t, ck.Policy, ref.Policy)
	// It carries the run's config, as a checkpoint does, so cmd/eval reads
	// it with the run's history format and answer length.
	saved, err := os.ReadFile(filepath.Join(dirR, ConfigFile))
	require.NoError(t, err)
	assert.Equal(t, ck.Meta["config"], ref.Meta["config"])
	assert.Equal(t, string(saved), ref.Meta["config"])

	// The KL penalty sees the move: the same run without resets differs from iteration 3 on.
	still := cfg
	still.Loss.KLResetEvery = 0
	fixed := &recordObserver{}
	_, err = Run(context.Background(), still, reg, Options{Dir: filepath.Join(t.TempDir(), "f"), Observer: fixed})
	require.NoError(t, err)
	assert.Equal(t, stable(full.iters[:2]), stable(fixed.iters[:2]))
	assert.NotEqual(t, full.iters[2]["losses/kl"], fixed.iters[2]["losses/kl"])

	// An interruption between the checkpoint of iteration 2 and the move of
	// the reference (simulated with the reference of iteration 0) is redone
	// on resume, and the run ends as the uninterrupted one.
	dir0 := filepath.Join(t.TempDir(), "zero")
	runUntil(t, cfg, dir0, 1)
	require.Equal(t, "0", referenceIteration(t, dir0))
	old, err := os.ReadFile(filepath.Join(dir0, ReferenceFile))
	require.NoError(t, err)
	dirB := filepath.Join(t.TempDir(), "b")
	first := runUntil(t, cfg, dirB, 2)
	require.NoError(t, os.WriteFile(filepath.Join(dirB, ReferenceFile), old, 0o644))
	second := &recordObserver{}
	_, err = Run(context.Background(), cfg, reg, Options{Dir: dirB, Resume: true, Observer: second})
	require.NoError(t, err)
	assert.Equal(t, stable(full.iters), stable(append(first.iters, second.iters...)))

	// A reference from another point of the run is refused, and left as it is.
	dirC := filepath.Join(t.TempDir(), "c")
	runUntil(t, cfg, dirC, 3)
	require.NoError(t, os.WriteFile(filepath.Join(dirC, ReferenceFile), old, 0o644))
	_, err = Run(context.Background(), cfg, reg, Options{Dir: dirC, Resume: true})
	require.Error(t, err)
	assert.ErrorContains(t, err, "iteration 0")
	assert.ErrorContains(t, err, "needs the reference of iteration 2")
	assert.Equal(t, "0", referenceIteration(t, dirC))
}
