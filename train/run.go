package train

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/gemgo/gemgo/algo"
	"github.com/gemgo/gemgo/buffer"
	"github.com/gemgo/gemgo/chat"
	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/internal/atomicfile"
	"github.com/gemgo/gemgo/metrics"
	"github.com/gemgo/gemgo/policy"
	"github.com/gemgo/gemgo/rollout"
)

// Result is what a finished (or interrupted) run reports.
type Result struct {
	Dir         string // the run directory
	Iterations  int    // iterations completed
	EnvSteps    int
	Episodes    int
	Wall        time.Duration // training time, over all processes of a resumed run
	FinalEval   EvalResult
	BestSuccess float64
}

// Observer receives a run's progress as it happens. Run calls it from one
// goroutine.
type Observer interface {
	Warmup(step, steps int, st policy.Stats)
	Iteration(it int, m algo.Metrics)
	Eval(e EvalResult)
}

// Options says where a run lives.
type Options struct {
	Dir      string   // the run directory (created; must not hold a run unless Resume)
	Resume   bool     // continue the run in Dir from its checkpoint
	Observer Observer // optional
}

// runner is one training run's state.
type runner struct {
	cfg     Config
	cfgYAML []byte
	serving map[string]string // the serving settings' metadata entry (checkpointMeta)
	dir     string
	obs     Observer
	newEnv  func() (envs.Env, error)
	// newEvalEnv makes the held-out evaluation's env (eval.options over
	// env.options); newEnv's when there are none
	newEvalEnv func() (envs.Env, error)
	// newWarmupEnv makes the warm-up's env (warmup.options over
	// env.options); newEnv's when there are none
	newWarmupEnv func() (envs.Env, error)
	// targets are the envs of a per-env evaluation (eval.envs or the
	// mixture's entries); nil evaluates newEvalEnv's env alone
	targets []evalTarget
	// mixCum and mixNames are the mixture's cumulative weights and entry
	// names (nil for one env): pickEnv on an episode's seed names its env
	mixCum   []float64
	mixNames []string

	tok     *policy.Tokenizer
	w, cw   *policy.Weights
	tr      *policy.Trainer
	critic  *policy.Critic
	ref     *policy.Trainer
	refIter int // the iteration the reference was taken at (0: after the warm-up)
	agent   *rollout.Agent
	src     *rand.PCG
	rng     *rand.Rand
	prog    progress
	start   time.Time
	log     *metrics.Logger
	last    EvalResult // the latest evaluation
}

// Run trains as cfg says in opts.Dir, or resumes the run there. It holds
// the directory's lock (internal/fslock) until it returns, so a second Run
// on the directory, in any process, is refused at once. A new run that
// fails before its first iteration removes the directory when Run made it
// and it holds nothing to resume.
func Run(ctx context.Context, cfg Config, reg *envs.Registry, opts Options) (_ Result, err error) {
	if err := cfg.Validate(); err != nil {
		return Result{Dir: opts.Dir}, err
	}
	var made atomic.Uint64 // envs made: they take env.remote's servers in turn
	r := &runner{cfg: cfg, dir: opts.Dir, obs: opts.Observer, newEnv: trainFactory(ctx, reg, cfg, &made), newEvalEnv: envFactory(ctx, reg, cfg.EvalEnv(), &made),
		targets: cfg.evalTargets(ctx, reg, &made), start: time.Now()}
	r.newWarmupEnv = r.newEnv
	if len(cfg.Warmup.Options) > 0 {
		r.newWarmupEnv = envFactory(ctx, reg, cfg.WarmupEnv(), &made)
	}
	if len(cfg.Env.Mix) > 0 {
		r.mixCum, r.mixNames = cumulative(cfg.Env.Mix), cfg.MixNames()
	}
	if r.obs == nil {
		r.obs = nopObserver{}
	}
	if r.cfgYAML, err = cfg.Marshal(); err != nil {
		return r.result(), err
	}
	r.serving = map[string]string{}
	if err := chat.PutSettings(r.serving, cfg.servingSettings()); err != nil {
		return r.result(), err
	}
	probe, err := r.newEnv()
	if err != nil {
		return r.result(), err
	}
	if !opts.Resume {
		err = needSamplers(cfg, probe)
	}
	_ = envs.Close(probe)
	if err != nil {
		return r.result(), err
	}
	if len(cfg.Eval.Options) > 0 {
		// the evaluation's env, made once now: a bad eval.options key
		// fails here, not at the first evaluation
		evalProbe, err := r.newEvalEnv()
		if err != nil {
			return r.result(), fmt.Errorf("eval.options: %w", err)
		}
		_ = envs.Close(evalProbe)
	}
	for i, t := range r.targets {
		// each env of the evaluation, made once now for the same reason
		p, err := t.newEnv()
		if err != nil {
			if len(cfg.Eval.Envs) > 0 {
				return r.result(), fmt.Errorf("eval.envs[%d] (%s): %w", i, t.name, err)
			}
			return r.result(), fmt.Errorf("eval.options on env.mix[%d] (%s): %w", i, t.name, err)
		}
		_ = envs.Close(p)
	}
	created, unlock, err := claimDir(r.dir, opts.Resume)
	if err != nil {
		return r.result(), err
	}
	defer unlock()
	if created {
		defer func() {
			if err != nil && r.prog.Iteration == 0 {
				removeFailedStart(r.dir)
			}
		}()
	}
	if opts.Resume {
		err = r.resume(ctx)
	} else if err = r.init(ctx); err != nil && ctx.Err() != nil && !errors.Is(err, ErrInterrupted) {
		// Stopped while building the vocabulary or in the warm-up:
		// there is no checkpoint yet, only config.yaml.
		err = fmt.Errorf("%w before the first checkpoint (%w): nothing to resume; run the same command again to start over", ErrInterrupted, ctx.Err())
	}
	if err != nil {
		return r.result(), err
	}
	if r.log, err = metrics.NewLogger(r.dir); err != nil {
		return r.result(), err
	}
	defer r.log.Close()
	if opts.Resume {
		var names []string
		for _, t := range r.targets {
			names = append(names, t.name)
		}
		r.last = lastEval(r.log.Rows(), cfg.Eval.Episodes, names)
	}
	err = r.loop(ctx)
	if rerr := r.writeReport(); rerr != nil && err == nil {
		err = rerr
	}
	return r.result(), err
}

func (r *runner) result() Result {
	return Result{Dir: r.dir, Iterations: r.prog.Iteration, EnvSteps: r.prog.EnvSteps, Episodes: r.prog.Episodes,
		Wall: time.Duration((r.prog.WallSeconds + time.Since(r.start).Seconds()) * float64(time.Second)), BestSuccess: r.prog.BestSuccess, FinalEval: r.last}
}

// init starts a new run in its directory (made by claimDir): config.yaml,
// tokenizer, policy, warm-up.
func (r *runner) init(ctx context.Context) error {
	cfg := r.cfg
	for _, f := range []string{CheckpointFile, WarmupFile} {
		if _, err := os.Stat(filepath.Join(r.dir, f)); err == nil {
			return fmt.Errorf("run directory %s already holds a run (%s): continue it with -resume %s, or pick another name or -out", r.dir, f, r.dir)
		}
	}
	if _, err := atomicfile.RemoveStale(r.dir); err != nil {
		return err
	}
	if err := atomicfile.WriteFile(filepath.Join(r.dir, ConfigFile), r.cfgYAML); err != nil {
		return fmt.Errorf("run directory %s is not writable: %w (choose another with -out)", r.dir, err)
	}
	r.src = rand.NewPCG(cfg.Seed, 0x6a09e667f3bcc908)
	r.rng = rand.New(r.src)
	if cfg.Warmup.From != "" {
		if err := r.startFrom(cfg.Warmup.From); err != nil {
			return err
		}
	} else if err := r.newPolicy(ctx); err != nil {
		return err
	}
	return r.finishInit()
}

// finishInit completes a new run once its policy is ready (warmed up or
// loaded): the reference, the critic, the trainers and the rng state.
func (r *runner) finishInit() error {
	cfg := r.cfg
	pc := r.w.Config
	if cfg.Loss.KLCoef > 0 {
		if err := r.saveReference(r.w, 0); err != nil {
			return err
		}
	}
	var err error
	if cfg.Algo.NeedsCritic() {
		if r.cw, err = policy.NewCriticWeights(pc, r.rng); err != nil {
			return err
		}
	}
	if err := r.build(); err != nil {
		return err
	}
	r.prog.RNG, _ = r.src.MarshalBinary()
	return nil
}

// newPolicy builds the vocabulary from random play and a fresh policy, and
// warms it up.
func (r *runner) newPolicy(ctx context.Context) error {
	cfg := r.cfg
	var err error
	if r.tok, err = buildTokenizer(ctx, r.newEnv, cfg.Tokenizer, cfg.Seed<<20, r.rng); err != nil {
		return err
	}
	pc := cfg.policyConfig(r.tok.VocabSize())
	if r.w, err = policy.NewWeights(pc, r.rng); err != nil {
		return err
	}
	if cfg.Warmup.Steps > 0 {
		poolRNG, _ := r.src.MarshalBinary()
		return r.warmUp(ctx, warmupState{PoolRNG: poolRNG}, nil)
	}
	return ctx.Err()
}

// modelDiff says how the model saved in ck differs from the one the config
// asks for with ck's tokenizer; nil when they match.
func (r *runner) modelDiff(ck *policy.Checkpoint) error {
	return ck.Policy.Config.Diff(r.cfg.policyConfig(ck.Tokenizer.VocabSize()))
}

// startFrom takes the tokenizer and weights of the policy checkpoint at
// path (warmup.from), checking that the config's model keys give its shape.
func (r *runner) startFrom(path string) error {
	ck, err := policy.LoadCheckpoint(path)
	if err != nil {
		return fmt.Errorf("warmup.from: %w", err)
	}
	if err := r.modelDiff(ck); err != nil {
		return fmt.Errorf("warmup.from %s: its model differs from the config's: %w (set the model keys as in the run that saved it)", path, err)
	}
	r.tok, r.w = ck.Tokenizer, ck.Policy
	return nil
}

// build makes the trainers and the agent over the current weights.
func (r *runner) build() error {
	cfg := r.cfg
	var err error
	if r.tr, err = policy.NewTrainer(r.w, cfg.optimConfig(cfg.Optim.LR)); err != nil {
		return err
	}
	if r.cw != nil {
		if r.critic, err = policy.NewCritic(r.cw, cfg.optimConfig(cfg.criticLR())); err != nil {
			return err
		}
	}
	if cfg.Loss.KLCoef > 0 {
		if err := r.loadReference(); err != nil {
			return err
		}
	}
	pc := r.w.Config
	sc := cfg.Sample.SampleConfig
	sc.EOS = r.tok.EOS()
	r.agent = &rollout.Agent{Tok: r.tok, Sampler: policy.NewSampler(r.w), Context: pc.Context, RequireEOS: cfg.Sample.RequireEOS, Sample: sc}
	if r.critic != nil {
		r.agent.Critic = r.critic
	}
	return nil
}

// loop runs the iterations after r.prog.Iteration.
func (r *runner) loop(ctx context.Context) error {
	cfg := r.cfg
	var ref algo.Reference
	if r.ref != nil {
		ref = r.ref
	}
	var critic algo.ValueLearner
	if r.critic != nil {
		critic = r.critic
	}
	alg, err := algo.New(cfg.Algo, algo.Deps{Loss: cfg.lossConfig(), Reference: ref, Critic: critic,
		PackRows: policy.MaxPackedLen(cfg.Model.Context)})
	if err != nil {
		return err
	}
	col, err := rollout.NewCollector(cfg.Env.NumEnvs, randomStart(r.newEnv, cfg.Rollout), r.agent)
	if err != nil {
		return err
	}
	col.EnvID = cfg.EnvLabel()
	defer col.Close()
	if r.prog.Iteration == 0 && cfg.Eval.Episodes > 0 {
		e, err := r.evaluate(ctx, 0)
		if err != nil {
			return err
		}
		m := algo.Metrics{}
		e.record(m)
		if err := r.log.Log(0, m); err != nil {
			return err
		}
		r.obs.Eval(e)
	}
	var buf buffer.Buffer
	for it := r.prog.Iteration + 1; it <= cfg.Iterations; it++ {
		if err := ctx.Err(); err != nil {
			return r.interrupted(err)
		}
		b, err := r.collect(ctx, col, it, &buf)
		if err != nil {
			if ctx.Err() != nil {
				return r.interrupted(ctx.Err())
			}
			return fmt.Errorf("iteration %d: %w", it, err)
		}
		t0 := time.Now()
		if err := r.setLRScale(it); err != nil {
			return fmt.Errorf("iteration %d: %w", it, err)
		}
		m := algo.Metrics{}
		if buf.Len() > 0 { // empty only when filter_groups kept no group
			if m, err = alg.Update(&buf, r.tr, r.rng); err != nil {
				return fmt.Errorf("iteration %d: %w", it, err)
			}
		}
		r.prog.Iteration = it
		r.prog.EnvSteps += b.rollout.Steps
		r.prog.Episodes += b.rollout.Episodes
		r.prog.RNG, _ = r.src.MarshalBinary()
		b.record(m, cfg.Rollout.FilterGroups, r.mixNames)
		m["perf/update_s"] = time.Since(t0).Seconds()
		m["global/env_steps"] = float64(r.prog.EnvSteps)
		m["global/episodes"] = float64(r.prog.Episodes)
		m["global/wall_s"] = r.result().Wall.Seconds()
		if cfg.Eval.Episodes > 0 && ((cfg.Eval.Every > 0 && it%cfg.Eval.Every == 0) || it == cfg.Iterations) {
			t1 := time.Now()
			// The update is done (r.prog is at it): a stop now would save
			// the checkpoint of it without its row, which resume refuses,
			// so the evaluation runs to its end and the loop stops at the
			// next iteration's start.
			e, err := r.evaluate(context.WithoutCancel(ctx), it)
			m["perf/eval_s"] = time.Since(t1).Seconds()
			if err != nil {
				return err
			}
			r.prog.BestSuccess = max(r.prog.BestSuccess, e.SuccessRate)
			e.record(m)
			r.obs.Eval(e)
		}
		if err := r.log.Log(it, m); err != nil {
			return err
		}
		r.obs.Iteration(it, m)
		if (cfg.Checkpoint.Every > 0 && it%cfg.Checkpoint.Every == 0) || it == cfg.Iterations || cfg.resetDue(it) {
			if err := r.saveCheckpoint(CheckpointFile); err != nil {
				return err
			}
			if err := r.writeReport(); err != nil {
				return err
			}
		}
		if cfg.resetDue(it) {
			if err := r.resetReference(it); err != nil {
				return err
			}
		}
	}
	ck := &policy.Checkpoint{Policy: r.w, Tokenizer: r.tok, Meta: r.checkpointMeta(nil)}
	return policy.SaveCheckpoint(filepath.Join(r.dir, FinalFile), ck)
}

// setLRScale sets the learning-rate factor of iteration it (the cosine
// decay by iteration, Config.lrScale) on the policy's and the critic's
// optimizers.
func (r *runner) setLRScale(it int) error {
	s := r.cfg.lrScale(it)
	if err := r.tr.SetLRScale(s); err != nil {
		return err
	}
	if r.critic != nil {
		return r.critic.SetLRScale(s)
	}
	return nil
}

// ErrInterrupted wraps the context's error when a run stops early; the
// checkpoint in the run directory holds the last completed iteration.
var ErrInterrupted = errors.New("interrupted")

func (r *runner) interrupted(cause error) error {
	// The weights and r.prog are those of the last completed iteration:
	// an interrupted rollout has not touched them.
	if err := r.saveCheckpoint(CheckpointFile); err != nil {
		return fmt.Errorf("%w (%v), and saving the checkpoint failed: %v", ErrInterrupted, cause, err)
	}
	return fmt.Errorf("%w at iteration %d (%v): checkpoint saved; continue with -resume %s", ErrInterrupted, r.prog.Iteration, cause, r.dir)
}

type nopObserver struct{}

func (nopObserver) Warmup(int, int, policy.Stats) {}
func (nopObserver) Iteration(int, algo.Metrics)   {}
func (nopObserver) Eval(EvalResult)               {}
