package train

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/algo"
	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/builtin"
	"github.com/gemgo/gemgo/envs/envtest"
	"github.com/gemgo/gemgo/metrics"
	"github.com/gemgo/gemgo/policy"
)

// tinyConfig trains a very small model for a few iterations: seconds.
func tinyConfig(algoName string) Config {
	c := DefaultConfig()
	c.Name = "tiny"
	c.Iterations = 4
	c.Model = policy.Config{Layers: 1, DModel: 16, Heads: 2, Context: 64}
	c.Tokenizer.CorpusEpisodes = 20
	c.Warmup = WarmupConfig{Steps: 5, BatchSize: 8, LR: 3e-3}
	c.Env.NumEnvs = 8
	c.Rollout = RolloutConfig{Episodes: 8, GroupSize: 1}
	c.Algo.Name = algoName
	c.Algo.MinibatchSize = 16
	c.Eval = EvalConfig{Every: 2, Episodes: 10, SeedBase: 1 << 40}
	c.Checkpoint.Every = 1
	if algoName == "grpo" {
		c.Rollout.GroupSize = 4
	}
	return c
}

// recordObserver keeps every iteration's metrics; it can cancel the run
// after a given iteration (as Ctrl-C would).
type recordObserver struct {
	iters       []algo.Metrics
	evals       []EvalResult
	cancelAfter int
	cancel      context.CancelFunc
}

func (o *recordObserver) Warmup(int, int, policy.Stats) {}
func (o *recordObserver) Eval(e EvalResult)             { o.evals = append(o.evals, e) }
func (o *recordObserver) Iteration(it int, m algo.Metrics) {
	o.iters = append(o.iters, m)
	if it == o.cancelAfter && o.cancel != nil {
		o.cancel()
	}
}

// stable drops the metrics that measure time.
func stable(ms []algo.Metrics) []algo.Metrics {
	var out []algo.Metrics
	for _, m := range ms {
		c := algo.Metrics{}
		for k, v := range m {
			if len(k) > 5 && (k[:5] == "perf/" || k == "global/wall_s") {
				continue
			}
			c[k] = v
		}
		out = append(out, c)
	}
	return out
}

func TestResumeEqualsUninterrupted(t *testing.T) {
	for _, name := range []string{"rebn", "ppo", "grpo-filter", "mix"} {
		t.Run(name, func(t *testing.T) {
			cfg := tinyConfig(name)
			if name == "mix" {
				cfg = mixConfig(t)
			}
			if name == "grpo-filter" {
				cfg = tinyConfig("grpo")
				cfg.Rollout.FilterGroups = true
				cfg.Warmup.Steps = 100 // some groups differ, so updates run
			}
			reg := builtin.Registry()
			full := &recordObserver{}
			dirA := filepath.Join(t.TempDir(), "a")
			resA, err := Run(context.Background(), cfg, reg, Options{Dir: dirA, Observer: full})
			require.NoError(t, err)
			require.Len(t, full.iters, 4)
			updated := 0
			for _, m := range full.iters {
				if _, ok := m["losses/loss"]; ok {
					updated++
				}
			}
			require.Positive(t, updated, "some iteration updates the policy")

			dirB := filepath.Join(t.TempDir(), "b")
			ctx, cancel := context.WithCancel(context.Background())
			first := &recordObserver{cancelAfter: 2, cancel: cancel}
			_, err = Run(ctx, cfg, reg, Options{Dir: dirB, Observer: first})
			require.ErrorIs(t, err, ErrInterrupted)
			assert.ErrorContains(t, err, "-resume "+dirB)
			require.Len(t, first.iters, 2)
			second := &recordObserver{}
			resB, err := Run(context.Background(), cfg, reg, Options{Dir: dirB, Resume: true, Observer: second})
			require.NoError(t, err)
			require.Len(t, second.iters, 2)

			assert.Equal(t, stable(full.iters), stable(append(first.iters, second.iters...)))
			assert.Equal(t, resA.EnvSteps, resB.EnvSteps)
			rowsA, err := metrics.ReadJSONL(filepath.Join(dirA, MetricsFile))
			require.NoError(t, err)
			rowsB, err := metrics.ReadJSONL(filepath.Join(dirB, MetricsFile))
			require.NoError(t, err)
			require.Len(t, rowsB, len(rowsA))
			require.Len(t, rowsA, 5, "the evaluation before training and 4 iterations")
			for i := range rowsA {
				assert.Equal(t, rowsA[i].Iteration, rowsB[i].Iteration)
				assert.Equal(t, stable([]algo.Metrics{rowsA[i].Metrics}), stable([]algo.Metrics{rowsB[i].Metrics}))
			}
			assert.FileExists(t, filepath.Join(dirB, ReportFile))
			assert.Equal(t, resA.FinalEval, resB.FinalEval, "the resumed run reports the same last evaluation")
			a, err := policy.LoadCheckpoint(filepath.Join(dirA, FinalFile))
			require.NoError(t, err)
			b, err := policy.LoadCheckpoint(filepath.Join(dirB, FinalFile))
			require.NoError(t, err)
			requireSameParams(t, a.Policy, b.Policy)
		})
	}
}

// requireSameParams fails unless a and b hold bit-identical parameters.
func requireSameParams(t *testing.T, a, b *policy.Weights) {
	t.Helper()
	require.Len(t, b.Params, len(a.Params))
	for i := range a.Params {
		require.Equal(t, a.Params[i].Data, b.Params[i].Data, a.Params[i].Name)
	}
}

func TestRunErrors(t *testing.T) {
	reg := builtin.Registry()
	cfg := tinyConfig("rebn")
	cfg.Env.ID = "game:GuessTheNumber-v0-eazy"
	_, err := Run(context.Background(), cfg, reg, Options{Dir: t.TempDir()})
	assert.ErrorContains(t, err, "did you mean")

	cfg = tinyConfig("rebn")
	_, err = Run(context.Background(), cfg, reg, Options{Dir: t.TempDir(), Resume: true})
	assert.ErrorContains(t, err, "no checkpoint")

	// A corrupt checkpoint is a clear error and is left as it was.
	dir := t.TempDir()
	path := filepath.Join(dir, CheckpointFile)
	require.NoError(t, os.WriteFile(path, []byte("not a checkpoint"), 0o644))
	_, err = Run(context.Background(), cfg, reg, Options{Dir: dir, Resume: true})
	require.Error(t, err)
	assert.Contains(t, err.Error(), CheckpointFile)
	data, _ := os.ReadFile(path)
	assert.Equal(t, "not a checkpoint", string(data))

	// A new run never overwrites a run directory that holds a checkpoint.
	_, err = Run(context.Background(), cfg, reg, Options{Dir: dir})
	assert.ErrorContains(t, err, "already holds a run")

	// An unwritable directory.
	blocker := filepath.Join(t.TempDir(), "file")
	require.NoError(t, os.WriteFile(blocker, nil, 0o644))
	_, err = Run(context.Background(), cfg, reg, Options{Dir: filepath.Join(blocker, "run")})
	assert.ErrorContains(t, err, "-out")
	assert.False(t, errors.Is(err, ErrInterrupted))
}

func TestDropRowsAfter(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, MetricsFile)
	require.NoError(t, os.WriteFile(path, []byte("{\"iteration\":0,\"a\":1}\n{\"iteration\":1,\"a\":2}\n{\"iteration\":2,\"a\":3}\n"), 0o644))
	require.NoError(t, dropRowsAfter(dir, 1))
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "{\"iteration\":0,\"a\":1}\n{\"iteration\":1,\"a\":2}\n", string(data))
	require.NoError(t, dropRowsAfter(t.TempDir(), 3), "no metrics file is fine")
}

// warmupCanceler cancels the run at a given warm-up step, as Ctrl-C would.
type warmupCanceler struct {
	recordObserver
	at, first, last int
	// endDir, when set: at iteration 1, before its checkpoint, the run's
	// warm-up file (as it was at the warm-up's end) is copied to ended
	endDir, ended string
}

func (o *warmupCanceler) Iteration(it int, m algo.Metrics) {
	if it == 1 && o.endDir != "" {
		if data, err := os.ReadFile(filepath.Join(o.endDir, WarmupFile)); err == nil {
			_ = os.WriteFile(o.ended, data, 0o644)
		}
	}
	o.recordObserver.Iteration(it, m)
}

func (o *warmupCanceler) Warmup(step, _ int, _ policy.Stats) {
	if o.first == 0 {
		o.first = step
	}
	o.last = step
	if step == o.at {
		o.cancel()
	}
}

// An interrupt in the warm-up stops it at the next step, not after all of
// them, and saves it (TestResumedWarmupEqualsUninterrupted resumes one);
// the same command then refuses the directory. An interrupt before the
// first warm-up step leaves nothing to resume, and the same command then
// starts over in the same directory.
func TestInterruptInWarmup(t *testing.T) {
	cfg := tinyConfig("rebn")
	cfg.Warmup.Steps = 100000
	dir := filepath.Join(t.TempDir(), "w")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	o := &warmupCanceler{at: 3}
	o.cancel = cancel
	_, err := Run(ctx, cfg, builtin.Registry(), Options{Dir: dir, Observer: o})
	require.ErrorIs(t, err, ErrInterrupted)
	assert.Contains(t, err.Error(), "warm-up at step 3 of 100000")
	assert.Contains(t, err.Error(), "saved; continue with -resume "+dir)
	assert.Equal(t, 3, o.last, "no warm-up step after the interrupt")
	assert.NoFileExists(t, filepath.Join(dir, CheckpointFile))
	assert.FileExists(t, filepath.Join(dir, WarmupFile))
	_, err = Run(context.Background(), cfg, builtin.Registry(), Options{Dir: dir, Observer: &recordObserver{}})
	assert.ErrorContains(t, err, "already holds a run (warmup.safetensors): continue it with -resume")

	// Interrupted before the vocabulary is built: no warm-up step at all.
	dir = filepath.Join(t.TempDir(), "v")
	pre, stop := context.WithCancel(context.Background())
	stop()
	o2 := &warmupCanceler{}
	_, err = Run(pre, cfg, builtin.Registry(), Options{Dir: dir, Observer: o2})
	require.ErrorIs(t, err, ErrInterrupted)
	assert.Contains(t, err.Error(), "nothing to resume")
	assert.Zero(t, o2.last)
	assert.NoFileExists(t, filepath.Join(dir, WarmupFile))

	cfg.Warmup.Steps = 5
	_, err = Run(context.Background(), cfg, builtin.Registry(), Options{Dir: dir, Observer: &recordObserver{}})
	require.NoError(t, err)
	assert.FileExists(t, filepath.Join(dir, CheckpointFile))
	assert.NoFileExists(t, filepath.Join(dir, WarmupFile), "removed with the first checkpoint")
}

// The held-out evaluation plays env.options with eval.options over them;
// training never does, and a bad eval option fails before any training.
func TestEvalOptionsReachTheEvaluation(t *testing.T) {
	reg := envs.NewRegistry()
	var mu sync.Mutex
	made := map[int]int{} // turn limit → envs made with it
	require.NoError(t, reg.Register("test:toy", func(o *envs.Options) (envs.Env, error) {
		turns := o.Int("turns", 3, 1, 9)
		mu.Lock()
		made[turns]++
		mu.Unlock()
		return &envtest.Toy{MaxTurns: turns}, nil
	}))
	cfg := tinyConfig("rebn")
	cfg.Env.ID = "test:toy"
	cfg.Env.Options = EnvOptions{"turns": 3}
	cfg.Eval.Options = EnvOptions{"turns": 1}
	obs := &recordObserver{}
	_, err := Run(context.Background(), cfg, reg, Options{Dir: t.TempDir(), Observer: obs})
	require.NoError(t, err)
	require.NotEmpty(t, obs.evals)
	for _, e := range obs.evals {
		assert.Equal(t, 1.0, e.MeanTurns, "a held-out episode has one turn at eval.options' turn limit")
	}
	// Every env at the evaluation's limit is the start-up check's or one of
	// the 8 slots (num_envs) of an evaluation's two plays (greedy and
	// sampled); every other is training's.
	assert.Equal(t, 1+2*8*len(obs.evals), made[1], "envs made with eval.options")
	assert.Positive(t, made[3], "envs made with env.options")

	cfg.Eval.Options = EnvOptions{"turns": 12}
	dir := t.TempDir()
	_, err = Run(context.Background(), cfg, reg, Options{Dir: dir})
	require.ErrorContains(t, err, "eval.options")
	require.ErrorContains(t, err, "turns")
	_, statErr := os.Stat(filepath.Join(dir, CheckpointFile))
	assert.True(t, os.IsNotExist(statErr), "nothing trained")
}

// warmup.from starts RL from a saved policy: the run takes its tokenizer
// and weights (its reference is that policy), the same config gives the
// same numbers, and a missing file or another model shape is an error
// that names the key.
func TestWarmupFrom(t *testing.T) {
	reg := builtin.Registry()
	cfg := tinyConfig("rebn")
	dirA := filepath.Join(t.TempDir(), "a")
	_, err := Run(context.Background(), cfg, reg, Options{Dir: dirA, Observer: &recordObserver{}})
	require.NoError(t, err)
	warm := filepath.Join(dirA, ReferenceFile)

	from := cfg
	from.Warmup.From = warm
	var runs [2][]algo.Metrics
	for i := range runs {
		dir := filepath.Join(t.TempDir(), "b")
		o := &recordObserver{}
		_, err := Run(context.Background(), from, reg, Options{Dir: dir, Observer: o})
		require.NoError(t, err)
		runs[i] = stable(o.iters)
		a, err := policy.LoadCheckpoint(warm)
		require.NoError(t, err)
		b, err := policy.LoadCheckpoint(filepath.Join(dir, ReferenceFile))
		require.NoError(t, err)
		requireSameParams(t, a.Policy, b.Policy)
		assert.Equal(t, a.Tokenizer.NumPieces(), b.Tokenizer.NumPieces())
		for id := range a.Tokenizer.VocabSize() {
			require.Equal(t, a.Tokenizer.TokenString(id), b.Tokenizer.TokenString(id))
		}
	}
	require.Len(t, runs[0], cfg.Iterations)
	assert.Equal(t, runs[0], runs[1], "same config and policy, same numbers")

	from.Model.DModel = 32
	_, err = Run(context.Background(), from, reg, Options{Dir: t.TempDir()})
	assert.ErrorContains(t, err, "warmup.from")
	assert.ErrorContains(t, err, "model differs")

	from = cfg
	from.Warmup.From = filepath.Join(t.TempDir(), "missing.safetensors")
	_, err = Run(context.Background(), from, reg, Options{Dir: t.TempDir()})
	assert.ErrorContains(t, err, "warmup.from")
	assert.ErrorContains(t, err, "missing.safetensors")
}

// A run at sample.temperature T trains the policy it samples: with one
// optimizer step an iteration (the whole buffer, one epoch) every step is
// the first after its rollout, so the sampler's log-probs are the loss's
// and the ratio is 1 on every token (approx KL 0, nothing clipped). The
// temperature-1 loss of the old wiring reads those samples as another
// policy's (approx KL well above 0).
func TestRunTrainsTheSampledPolicy(t *testing.T) {
	for _, temp := range []float64{0.6, 1.4} {
		cfg := tinyConfig("rebn")
		cfg.Sample.Temperature = temp
		cfg.Algo.Epochs, cfg.Algo.MinibatchSize = 1, 0
		cfg.Loss.KLCoef = 0.05
		obs := &recordObserver{}
		_, err := Run(context.Background(), cfg, builtin.Registry(), Options{Dir: t.TempDir(), Observer: obs})
		require.NoError(t, err)
		require.Len(t, obs.iters, 4)
		for i, m := range obs.iters {
			require.Equal(t, 1.0, m["losses/optimizer_steps"], "iteration %d", i+1)
			assert.Less(t, m["losses/approx_kl"], 1e-6, "T %v iteration %d", temp, i+1)
			assert.Zero(t, m["losses/clipfrac"], "T %v iteration %d", temp, i+1)
			if i > 0 { // the first update starts from the reference itself
				assert.Positive(t, m["losses/kl"], "T %v iteration %d: the policy has left the reference", temp, i+1)
			}
		}
	}
}

// The evaluation plays the held-out seeds twice: greedily, and sampled at
// the training's temperature. On a one-turn Toy every seed shows the same
// prompt, so the greedy play answers every seed alike and its success is
// the share of one digit among the targets (or 0); the sampled play is the
// same seeds' draws, equal to the greedy one when the temperature is near
// 0, and both are the same numbers on a rerun.
func TestEvalReportsSampledBesideGreedy(t *testing.T) {
	reg := envs.NewRegistry()
	require.NoError(t, reg.Register("test:toy1", func(o *envs.Options) (envs.Env, error) { return envtest.NewToy(1), nil }))
	cfg := tinyConfig("rebn")
	cfg.Env.ID = "test:toy1"
	cfg.Env.Options = nil
	cfg.Iterations = 2
	cfg.Eval = EvalConfig{Every: 1, Episodes: 40, SeedBase: 1 << 40}
	play := func(temperature float64) []EvalResult {
		c := cfg
		c.Sample.Temperature = temperature
		obs := &recordObserver{}
		dir := t.TempDir()
		_, err := Run(context.Background(), c, reg, Options{Dir: dir, Observer: obs})
		require.NoError(t, err)
		rows, err := os.ReadFile(filepath.Join(dir, "metrics.jsonl"))
		require.NoError(t, err)
		assert.Equal(t, len(obs.evals), strings.Count(string(rows), `"eval/sampled_success_rate"`), "every evaluation row logs the sampled play")
		return obs.evals
	}
	share := map[float64]bool{0: true}
	for d := 1; d <= 9; d++ {
		n := 0
		for i := range uint64(40) {
			if envtest.ToyTarget(1<<40+i) == d {
				n++
			}
		}
		share[float64(n)/40] = true
	}
	hot := play(1)
	require.Len(t, hot, 3) // iterations 0, 1 and 2
	for _, e := range hot {
		assert.True(t, share[e.SuccessRate], "greedy success %v is not one digit's share of the targets", e.SuccessRate)
		assert.True(t, e.SampledSuccessRate >= 0 && e.SampledSuccessRate <= 1, "sampled success %v", e.SampledSuccessRate)
	}
	assert.Equal(t, hot, play(1), "the same config gives the same evaluations")
	for _, e := range play(1e-4) {
		assert.Equal(t, e.SuccessRate, e.SampledSuccessRate, "near temperature 0 the sampled play is the greedy one (iteration %d)", e.Iteration)
		assert.Equal(t, e.MeanReturn, e.SampledReturn, "iteration %d", e.Iteration)
	}
}
