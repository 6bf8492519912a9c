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

// A warm-up stopped by an interrupt, or killed after a periodic save or
// after its end, resumes to the same run as one never stopped: the same
// warmed-up policy, the same iterations, the same final weights. Both
// warm-up modes.
func TestResumedWarmupEqualsUninterrupted(t *testing.T) {
	for _, transcript := range []bool{false, true} {
		cfg := tinyConfig("rebn")
		cfg.Iterations = 2
		cfg.Warmup.Steps = warmupSaveEvery + 200
		cfg.Warmup.Transcript = transcript
		reg := builtin.Registry()

		dirA := filepath.Join(t.TempDir(), "a")
		full := &recordObserver{}
		_, err := Run(context.Background(), cfg, reg, Options{Dir: dirA, Observer: full})
		require.NoError(t, err)

		// B: Ctrl-C at step warmupSaveEvery+100; on the way, keep the file
		// of the periodic save (step warmupSaveEvery) as a killed process
		// would have left it.
		dirB := filepath.Join(t.TempDir(), "b")
		killed := filepath.Join(t.TempDir(), "killed")
		ctx, cancel := context.WithCancel(context.Background())
		o := &warmupCopier{warmupCanceler: warmupCanceler{at: warmupSaveEvery + 100}, dir: dirB, to: killed}
		o.cancel = cancel
		_, err = Run(ctx, cfg, reg, Options{Dir: dirB, Observer: o})
		cancel()
		require.ErrorIs(t, err, ErrInterrupted)
		require.NoError(t, o.err)
		second := &warmupCanceler{at: -1, endDir: dirB, ended: filepath.Join(t.TempDir(), "ended")}
		_, err = Run(context.Background(), cfg, reg, Options{Dir: dirB, Resume: true, Observer: second})
		require.NoError(t, err)
		assert.Equal(t, [2]int{warmupSaveEvery + 101, cfg.Warmup.Steps}, [2]int{second.first, second.last}, "the warm-up steps after the interrupt only")
		assert.Equal(t, stable(full.iters), stable(second.iters), "transcript %v", transcript)
		requireSameFile(t, dirA, dirB, ReferenceFile)
		requireSameFile(t, dirA, dirB, FinalFile)
		assert.NoFileExists(t, filepath.Join(dirB, WarmupFile))

		// C: the directory as the kill left it: config.yaml and the
		// warm-up at step warmupSaveEvery.
		dirC := filepath.Join(t.TempDir(), "c")
		require.NoError(t, os.MkdirAll(dirC, 0o755))
		copyFile(t, filepath.Join(dirA, ConfigFile), filepath.Join(dirC, ConfigFile))
		copyFile(t, killed, filepath.Join(dirC, WarmupFile))
		third := &warmupCanceler{at: -1}
		_, err = Run(context.Background(), cfg, reg, Options{Dir: dirC, Resume: true, Observer: third})
		require.NoError(t, err)
		assert.Equal(t, warmupSaveEvery+1, third.first, "the warm-up steps after the save only")
		requireSameFile(t, dirA, dirC, ReferenceFile)
		requireSameFile(t, dirA, dirC, FinalFile)

		// D: killed after the warm-up ended, before the first checkpoint.
		dirD := filepath.Join(t.TempDir(), "d")
		require.NoError(t, os.MkdirAll(dirD, 0o755))
		copyFile(t, filepath.Join(dirA, ConfigFile), filepath.Join(dirD, ConfigFile))
		copyFile(t, second.ended, filepath.Join(dirD, WarmupFile))
		fourth := &warmupCanceler{at: -1}
		_, err = Run(context.Background(), cfg, reg, Options{Dir: dirD, Resume: true, Observer: fourth})
		require.NoError(t, err)
		assert.Zero(t, fourth.last, "no warm-up step")
		assert.Equal(t, stable(full.iters), stable(fourth.iters))
		requireSameFile(t, dirA, dirD, FinalFile)
	}
}

// warmupCopier copies the run's warm-up file away at the step after the
// first periodic save.
type warmupCopier struct {
	warmupCanceler
	dir, to string
	err     error
}

func (o *warmupCopier) Warmup(step, steps int, st policy.Stats) {
	if step == warmupSaveEvery+1 {
		data, err := os.ReadFile(filepath.Join(o.dir, WarmupFile))
		if err == nil {
			err = os.WriteFile(o.to, data, 0o644)
		}
		o.err = err
	}
	o.warmupCanceler.Warmup(step, steps, st)
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(to, data, 0o644))
}

// requireSameFile fails unless the policies in dirA/name and dirB/name have
// bit-identical parameters.
func requireSameFile(t *testing.T, dirA, dirB, name string) {
	t.Helper()
	a, err := policy.LoadCheckpoint(filepath.Join(dirA, name))
	require.NoError(t, err)
	b, err := policy.LoadCheckpoint(filepath.Join(dirB, name))
	require.NoError(t, err)
	requireSameParams(t, a.Policy, b.Policy)
}

// A corrupt warm-up file is refused with an error naming the file's
// problem, and left as it was.
func TestResumeWarmupCorrupt(t *testing.T) {
	cfg := tinyConfig("rebn")
	dir := filepath.Join(t.TempDir(), "w")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	data, err := cfg.Marshal()
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, ConfigFile), data, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, WarmupFile), []byte("not a checkpoint"), 0o644))
	_, err = Run(context.Background(), cfg, builtin.Registry(), Options{Dir: dir, Resume: true})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "resume "+dir)
	got, rerr := os.ReadFile(filepath.Join(dir, WarmupFile))
	require.NoError(t, rerr)
	assert.Equal(t, "not a checkpoint", string(got))

	_, err = warmupStateFromMeta(map[string]string{"warmup_step": "3"})
	assert.ErrorContains(t, err, `no "warmup_pool_rng"`)
	_, err = warmupStateFromMeta(warmupState{Step: 1, PoolRNG: []byte("x"), RNG: []byte("y")}.meta())
	assert.ErrorContains(t, err, `"warmup_pool_rng"`)
}
