package train

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strconv"

	"github.com/gemgo/gemgo/policy"
)

// A warm-up of thousands of steps can take most of a run's time, so it is
// saved as it goes (WarmupFile: the weights, the tokenizer, Adam's state and
// warmupState) every warmupSaveEvery steps, when it ends, and when it is
// stopped. `cmd/train -resume DIR` continues it from there and then trains
// as a run started afresh would: the resumed warm-up draws the same pool and
// the same batches, so it ends with the same weights. The file is removed
// once the run writes its first checkpoint.
const warmupSaveEvery = 500

// warmupState is what a warm-up needs, besides the weights and Adam's
// state, to continue exactly.
type warmupState struct {
	Step    int     // steps taken
	PoolRNG []byte  // the run's PCG state before the pool was drawn
	RNG     []byte  // the run's PCG state after Step
	Wall    float64 // training time so far, in seconds
}

func (s warmupState) meta() map[string]string {
	return map[string]string{
		"warmup_step":     strconv.Itoa(s.Step),
		"warmup_pool_rng": base64.StdEncoding.EncodeToString(s.PoolRNG),
		"rng":             base64.StdEncoding.EncodeToString(s.RNG),
		"wall_seconds":    strconv.FormatFloat(s.Wall, 'g', -1, 64),
	}
}

func warmupStateFromMeta(m map[string]string) (warmupState, error) {
	mr := metaReader{m: m, what: "warm-up"}
	s := warmupState{Step: mr.int("warmup_step"), PoolRNG: mr.rng("warmup_pool_rng"), RNG: mr.rng("rng"), Wall: mr.float("wall_seconds")}
	return s, mr.err
}

// warmUp runs the warm-up of r.w from st (st.Step = 0: from the start),
// with Adam's state adam when resuming, saving it as it goes.
func (r *runner) warmUp(ctx context.Context, st warmupState, adam *policy.AdamState) error {
	cfg := r.cfg
	wt, err := policy.NewTrainer(r.w, policy.OptimConfig{LR: cfg.Warmup.LR, MaxGradNorm: 1, WarmupSteps: cfg.Warmup.Steps / 10, TotalSteps: cfg.Warmup.Steps, MinLRFrac: 0.1})
	if err != nil {
		return err
	}
	if adam != nil {
		if err := wt.SetState(*adam); err != nil {
			return err
		}
	}
	var afterPool func() error
	if st.Step > 0 {
		afterPool = func() error { return r.src.UnmarshalBinary(st.RNG) }
	}
	// A failed save stops the warm-up: it would be lost at the next stop.
	wctx, stop := context.WithCancel(ctx)
	defer stop()
	var saveErr error
	start, done := st.Step, st.Step
	save := func() error {
		st.Step, st.Wall = done, r.result().Wall.Seconds()
		st.RNG, _ = r.src.MarshalBinary()
		adam := wt.State()
		ck := &policy.Checkpoint{Policy: r.w, Tokenizer: r.tok, PolicyAdam: &adam, Meta: st.meta()}
		ck.Meta = r.checkpointMeta(ck.Meta)
		if err := policy.SaveCheckpoint(filepath.Join(r.dir, WarmupFile), ck); err != nil {
			return fmt.Errorf("saving the warm-up at step %d: %w", done, err)
		}
		return nil
	}
	log := func(step int, s policy.Stats) {
		r.obs.Warmup(step, cfg.Warmup.Steps, s)
		done = step
		if step%warmupSaveEvery == 0 && step < cfg.Warmup.Steps && saveErr == nil {
			if saveErr = save(); saveErr != nil {
				stop()
			}
		}
	}
	err = warmup(wctx, wt, r.tok, r.newWarmupEnv, cfg.Warmup, r.w.Config.Context-cfg.Sample.MaxNewTokens, cfg.Seed<<24, r.rng, st.Step, afterPool, log)
	switch {
	case saveErr != nil:
		return saveErr
	case err != nil && ctx.Err() != nil && done > start:
		if serr := save(); serr != nil {
			return fmt.Errorf("%w in the warm-up at step %d of %d (%v), and %v", ErrInterrupted, done, cfg.Warmup.Steps, ctx.Err(), serr)
		}
		return fmt.Errorf("%w in the warm-up at step %d of %d (%v): saved; continue with -resume %s", ErrInterrupted, done, cfg.Warmup.Steps, ctx.Err(), r.dir)
	case err != nil && ctx.Err() != nil && start > 0: // stopped again before a step: the file holds step start
		return fmt.Errorf("%w in the warm-up at step %d of %d (%v): continue with -resume %s", ErrInterrupted, start, cfg.Warmup.Steps, ctx.Err(), r.dir)
	case err != nil:
		return err
	}
	return save() // a run stopped before its first checkpoint restarts here
}

// resumeWarmup continues the warm-up saved in r.dir, then sets the run up
// as init does.
func (r *runner) resumeWarmup(ctx context.Context) error {
	fail := func(err error) error { return fmt.Errorf("resume %s: %w", r.dir, err) }
	ck, err := policy.LoadCheckpoint(filepath.Join(r.dir, WarmupFile))
	if err != nil {
		return fail(err)
	}
	st, err := warmupStateFromMeta(ck.Meta)
	if err != nil {
		return fail(err)
	}
	if ck.PolicyAdam == nil {
		return fail(errors.New("the warm-up file has no optimizer state: it was not written by cmd/train; start a new run"))
	}
	changed, err := checkResumeConfig(r.dir, []byte(ck.Meta["config"]), r.cfg, r.cfgYAML)
	if err != nil {
		return fail(err)
	}
	if err := r.takeOver(ck, changed, "warm-up"); err != nil {
		return fail(err)
	}
	r.tok, r.w = ck.Tokenizer, ck.Policy
	r.prog.WallSeconds = st.Wall
	r.src = &rand.PCG{}
	if err := r.src.UnmarshalBinary(st.PoolRNG); err != nil {
		return fail(err)
	}
	r.rng = rand.New(r.src)
	if st.Step < r.cfg.Warmup.Steps {
		if err := r.warmUp(ctx, st, ck.PolicyAdam); err != nil {
			return err
		}
	} else if err := r.src.UnmarshalBinary(st.RNG); err != nil { // it had ended
		return fail(err)
	}
	return r.finishInit()
}
