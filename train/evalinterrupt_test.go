package train

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/algo"
	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/envtest"
	"github.com/gemgo/gemgo/metrics"
	"github.com/gemgo/gemgo/policy"
)

// evalTrap is envtest.Toy that calls cancel when an episode of a held-out
// seed (base … base+n−1) starts while armed: Ctrl-C in the middle of an
// evaluation.
type evalTrap struct {
	toy    *envtest.Toy
	base   uint64
	n      int
	armed  *atomic.Bool
	cancel context.CancelFunc
}

func (e *evalTrap) Reset(seed uint64) (string, envs.Info, error) {
	if seed >= e.base && seed-e.base < uint64(e.n) && e.armed.Load() {
		e.cancel()
	}
	return e.toy.Reset(seed)
}
func (e *evalTrap) Step(a string) (envs.Step, error) { return e.toy.Step(a) }
func (e *evalTrap) SampleAction(r *rand.Rand) string { return e.toy.SampleAction(r) }
func (e *evalTrap) Close() error                     { return e.toy.Close() }

// armObserver arms the trap after iteration after.
type armObserver struct {
	after int
	armed *atomic.Bool
}

func (o armObserver) Warmup(int, int, policy.Stats) {}
func (o armObserver) Eval(EvalResult)               {}
func (o armObserver) Iteration(it int, _ algo.Metrics) {
	if it == o.after {
		o.armed.Store(true)
	}
}

// A run stopped in the middle of an evaluation after an update finishes
// that evaluation and logs its row before it saves the checkpoint: the
// checkpoint of iteration 2 never lacks iteration 2's row, so the run
// resumes and ends as the uninterrupted run does.
func TestInterruptInEvaluationResumes(t *testing.T) {
	cfg := tinyConfig("rebn")
	cfg.Env.ID = "test:trap"
	cfg.Env.Options = nil
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var armed atomic.Bool
	reg := envs.NewRegistry()
	require.NoError(t, reg.Register("test:trap", func(*envs.Options) (envs.Env, error) {
		return &evalTrap{toy: envtest.NewToy(3), base: cfg.Eval.SeedBase, n: cfg.Eval.Episodes, armed: &armed, cancel: cancel}, nil
	}))

	dirA := filepath.Join(t.TempDir(), "a")
	_, err := Run(context.Background(), cfg, reg, Options{Dir: dirA})
	require.NoError(t, err)

	// Armed after iteration 1: iteration 2's rollouts play training
	// seeds, its evaluation (eval.every 2) the held-out ones.
	dirB := filepath.Join(t.TempDir(), "b")
	_, err = Run(ctx, cfg, reg, Options{Dir: dirB, Observer: armObserver{after: 1, armed: &armed}})
	require.ErrorIs(t, err, ErrInterrupted)
	assert.ErrorContains(t, err, "at iteration 2")
	rows, err := metrics.ReadJSONL(filepath.Join(dirB, MetricsFile))
	require.NoError(t, err)
	require.Len(t, rows, 3, "iterations 0, 1 and 2")
	assert.Contains(t, rows[2].Metrics, "eval/success_rate", "iteration 2's evaluation ran to its end")

	armed.Store(false)
	_, err = Run(context.Background(), cfg, reg, Options{Dir: dirB, Resume: true})
	require.NoError(t, err)
	rowsA, err := metrics.ReadJSONL(filepath.Join(dirA, MetricsFile))
	require.NoError(t, err)
	rowsB, err := metrics.ReadJSONL(filepath.Join(dirB, MetricsFile))
	require.NoError(t, err)
	require.Len(t, rowsB, len(rowsA))
	for i := range rowsA {
		assert.Equal(t, rowsA[i].Iteration, rowsB[i].Iteration)
		assert.Equal(t, stable([]algo.Metrics{rowsA[i].Metrics}), stable([]algo.Metrics{rowsB[i].Metrics}))
	}
	a, err := policy.LoadCheckpoint(filepath.Join(dirA, FinalFile))
	require.NoError(t, err)
	b, err := policy.LoadCheckpoint(filepath.Join(dirB, FinalFile))
	require.NoError(t, err)
	requireSameParams(t, a.Policy, b.Policy)
}
