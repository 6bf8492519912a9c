package compare

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/gemgo/gemgo/algo"
	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/builtin"
	"github.com/gemgo/gemgo/metrics"
	"github.com/gemgo/gemgo/policy"
	"github.com/gemgo/gemgo/train"
)

// Outcome says what Execute did with one run.
type Outcome int

const (
	Skipped     Outcome = iota // already finished: left as it was
	Finished                   // trained from the start to the end
	Resumed                    // continued from its checkpoint to the end
	Interrupted                // stopped by the context; its checkpoint holds the progress
	Failed                     // stopped by an error
)

func (o Outcome) String() string {
	return [...]string{"skipped (already finished)", "finished", "resumed and finished", "interrupted", "failed"}[o]
}

// Done is the result of one run.
type Done struct {
	Run     Run
	Outcome Outcome
	Err     error
	Wall    time.Duration // this process's time on the run
	// SharedWarmup says that the run started from its seed's shared
	// warm-up (Run.Warmup) instead of training one.
	SharedWarmup bool
}

// ExecOptions configures Execute.
type ExecOptions struct {
	Parallel int            // runs at once; < 1 means 1
	Registry *envs.Registry // the envs (builtin.Registry())
	Log      io.Writer      // progress lines; nil: none
}

// Execute runs every run not yet finished, up to opts.Parallel at once.
// A finished run (final weights and a metrics row for its last iteration)
// is skipped; one with a checkpoint resumes. When ctx ends, no new run
// starts and the running ones save a checkpoint and stop. It returns one
// Done per run, in the order of runs, and an error when any run failed or
// was interrupted.
func Execute(ctx context.Context, runs []Run, opts ExecOptions) ([]Done, error) {
	if opts.Registry == nil {
		opts.Registry = builtin.Registry()
	}
	log := &syncWriter{w: opts.Log}
	if opts.Log == nil {
		log.w = io.Discard
	}
	printCautions(runs, log)
	sem := make(chan struct{}, max(opts.Parallel, 1))
	done := make([]Done, len(runs))
	gate := &warmupGate{}
	var wg sync.WaitGroup
	for i, r := range runs {
		done[i] = Done{Run: r, Outcome: Interrupted, Err: context.Canceled}
		select {
		case <-ctx.Done():
			continue
		case sem <- struct{}{}:
		}
		if ctx.Err() != nil {
			<-sem
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			done[i] = execOne(ctx, r, opts.Registry, log, gate)
			d := done[i]
			from := ""
			if d.SharedWarmup {
				from = " from the shared warm-up"
			}
			switch d.Outcome {
			case Skipped:
				log.printf("%s: %s\n", label(r), d.Outcome)
			case Failed, Interrupted:
				log.printf("%s: %s%s: %v\n", label(r), d.Outcome, from, d.Err)
			default:
				log.printf("%s: %s%s in %s\n", label(r), d.Outcome, from, d.Wall.Round(time.Second))
			}
		}()
	}
	wg.Wait()
	var failed, stopped int
	for _, d := range done {
		switch d.Outcome {
		case Failed:
			failed++
		case Interrupted:
			stopped++
		}
	}
	switch {
	case failed > 0:
		return done, fmt.Errorf("%d of %d runs failed (%d interrupted); fix the cause and run the sweep again: finished runs are skipped", failed, len(runs), stopped)
	case stopped > 0:
		return done, fmt.Errorf("%w: %d of %d runs not finished; run the same command again to continue", train.ErrInterrupted, stopped, len(runs))
	}
	return done, nil
}

func label(r Run) string { return fmt.Sprintf("[%s seed%d]", r.Arm, r.Seed) }

// printCautions logs each arm's train.Config cautions once (not once a
// seed), before any run starts: cmd/compare and cmd/baselines both reach
// train.Run through Execute.
func printCautions(runs []Run, log *syncWriter) {
	printed := map[string]bool{}
	for _, r := range runs {
		for _, c := range r.Cfg.Cautions() {
			if key := r.Arm + "\x00" + c; !printed[key] {
				printed[key] = true
				log.printf("caution (arm %s): %s\n", r.Arm, c)
			}
		}
	}
}

// RunState is what a run directory holds.
type RunState int

const (
	Empty    RunState = iota // nothing to keep: start the run
	Partial                  // a checkpoint or a saved warm-up: resume it
	Complete                 // final weights and every metrics row: skip it
)

// SameConfig reports whether have, a run's saved config.yaml, resolves to
// cfg. It compares resolved configs, not text, so a run saved before a
// config key was added (and so without it) still matches when the key's
// default is what ran.
func SameConfig(have []byte, cfg train.Config) bool {
	want, err := cfg.Marshal()
	if err != nil {
		return false
	}
	if bytes.Equal(bytes.TrimSpace(have), bytes.TrimSpace(want)) {
		return true
	}
	ran, err := train.Parse(have, nil)
	if err != nil {
		return false
	}
	got, err := ran.Marshal()
	return err == nil && bytes.Equal(got, want)
}

// State inspects r.Dir. It fails when the directory holds a run of another
// config, which a sweep must neither resume nor count.
func State(r Run) (RunState, error) {
	ckpt := fileExists(filepath.Join(r.Dir, train.CheckpointFile)) || fileExists(filepath.Join(r.Dir, train.WarmupFile))
	final := fileExists(filepath.Join(r.Dir, train.FinalFile))
	if !ckpt && !final {
		return Empty, nil
	}
	have, err := os.ReadFile(filepath.Join(r.Dir, train.ConfigFile))
	if err != nil {
		return Empty, fmt.Errorf("%s holds a checkpoint but no readable %s: %w (delete the directory to start the run again)", r.Dir, train.ConfigFile, err)
	}
	if !SameConfig(have, r.Cfg) {
		return Empty, fmt.Errorf("%s holds a run of another config than this sweep's (compare its %s with the sweep); delete it, or use another -out", r.Dir, train.ConfigFile)
	}
	if final && metricsComplete(r) {
		return Complete, nil
	}
	if !ckpt {
		return Empty, fmt.Errorf("%s holds final weights but incomplete metrics and no checkpoint: delete the directory to run it again", r.Dir)
	}
	return Partial, nil
}

// metricsComplete reports whether the run logged its last iteration with an
// evaluation.
func metricsComplete(r Run) bool {
	rows, err := metrics.ReadJSONL(filepath.Join(r.Dir, metrics.JSONLName))
	if err != nil {
		return false
	}
	for _, row := range rows {
		if _, ok := row.Metrics[keySuccess]; ok && row.Iteration == r.Cfg.Iterations {
			return true
		}
	}
	return false
}

func execOne(ctx context.Context, r Run, reg *envs.Registry, log *syncWriter, gate *warmupGate) Done {
	d := Done{Run: r}
	st, err := State(r)
	if err != nil {
		d.Outcome, d.Err = Failed, err
		return d
	}
	if st == Complete {
		d.Outcome = Skipped
		return d
	}
	if st == Empty {
		// Rows left by a run killed before its first checkpoint would
		// repeat those of the new run.
		for _, name := range []string{metrics.JSONLName, metrics.CSVName} {
			if err := os.Remove(filepath.Join(r.Dir, name)); err != nil && !errors.Is(err, os.ErrNotExist) {
				d.Outcome, d.Err = Failed, err
				return d
			}
		}
	}
	obs := &progressObserver{run: r, log: log}
	if r.Warmup != "" && !fileExists(filepath.Join(r.Dir, train.CheckpointFile)) {
		// Not yet past its warm-up: wait while another run of the seed
		// trains one, then start from it or train it (and share it at
		// the evaluation before training).
		if err := gate.acquire(ctx, r.Seed); err != nil {
			d.Outcome, d.Err = Interrupted, err
			return d
		}
		release := gate.releaser(r.Seed)
		defer release()
		if st == Empty {
			if d.SharedWarmup, err = startFromShared(r); err != nil {
				d.Outcome, d.Err = Failed, err
				return d
			}
		}
		if d.SharedWarmup {
			release()
		} else {
			obs.beforeTraining = func() {
				if err := saveShared(r.Dir, r.Warmup); err != nil {
					log.printf("%s: %v (the other arms of seed %d train their own warm-up, to the same bits)\n", label(r), err, r.Seed)
				}
				release()
			}
		}
	}
	start := time.Now()
	_, err = train.Run(ctx, r.Cfg, reg, train.Options{Dir: r.Dir, Resume: st == Partial || d.SharedWarmup, Observer: obs})
	d.Wall = time.Since(start)
	switch {
	case err == nil && st == Partial:
		d.Outcome = Resumed
	case err == nil:
		d.Outcome = Finished
	case errors.Is(err, train.ErrInterrupted) || ctx.Err() != nil:
		d.Outcome, d.Err = Interrupted, err
	default:
		d.Outcome, d.Err = Failed, err
	}
	return d
}

// progressObserver prints one line per evaluation of a run.
type progressObserver struct {
	run Run
	log *syncWriter
	// beforeTraining, when set, is called at the evaluation before the
	// first iteration, when the run's finished warm-up is on disk
	// (train.WarmupFile) and no checkpoint has replaced it yet.
	beforeTraining func()
}

func (o *progressObserver) Warmup(int, int, policy.Stats) {}
func (o *progressObserver) Iteration(int, algo.Metrics)   {}
func (o *progressObserver) Eval(e train.EvalResult) {
	if e.Iteration == 0 && o.beforeTraining != nil {
		o.beforeTraining()
	}
	o.log.printf("%s it %d/%d: greedy success %.3f (sampled %.3f), turns of solved %.2f\n",
		label(o.run), e.Iteration, o.run.Cfg.Iterations, e.SuccessRate, e.SampledSuccessRate, e.SolvedTurns)
}

// syncWriter serialises the progress lines of concurrent runs.
type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) printf(format string, args ...any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	fmt.Fprintf(s.w, format, args...)
}
