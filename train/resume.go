package train

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"

	"github.com/gemgo/gemgo/internal/atomicfile"
	"github.com/gemgo/gemgo/policy"
)

// resume restores the run in r.dir from its checkpoint, or continues its
// warm-up when it stopped there.
func (r *runner) resume(ctx context.Context) error {
	path := filepath.Join(r.dir, CheckpointFile)
	if _, err := os.Stat(path); err != nil {
		if fileExists(filepath.Join(r.dir, WarmupFile)) {
			return r.resumeWarmup(ctx)
		}
		return fmt.Errorf("resume %s: no checkpoint (%s) there: start a new run instead", r.dir, CheckpointFile)
	}
	ck, err := policy.LoadCheckpoint(path)
	if err != nil {
		return fmt.Errorf("resume %s: %w", r.dir, err)
	}
	if r.prog, err = progressFromMeta(ck.Meta); err != nil {
		return fmt.Errorf("resume %s: %w", r.dir, err)
	}
	changed, err := checkResumeConfig(r.dir, []byte(ck.Meta["config"]), r.cfg, r.cfgYAML)
	if err != nil {
		return fmt.Errorf("resume %s: %w", r.dir, err)
	}
	if r.prog.Iteration >= r.cfg.Iterations && fileExists(filepath.Join(r.dir, FinalFile)) {
		return fmt.Errorf("run %s %w: %d of %d iterations; nothing was changed (its report is %s; to train longer, start a new run)",
			r.dir, ErrFinished, r.prog.Iteration, r.cfg.Iterations, filepath.Join(r.dir, ReportFile))
	}
	if err := checkMetricsReach(r.dir, r.prog.Iteration); err != nil {
		return fmt.Errorf("resume %s: %w", r.dir, err)
	}
	if err := r.takeOver(ck, changed, "checkpoint"); err != nil {
		return fmt.Errorf("resume %s: %w", r.dir, err)
	}
	if (ck.Critic != nil) != r.cfg.Algo.NeedsCritic() {
		return fmt.Errorf("resume %s: the checkpoint's critic does not match algo.name = %s", r.dir, r.cfg.Algo.Name)
	}
	r.tok, r.w, r.cw = ck.Tokenizer, ck.Policy, ck.Critic
	r.src = &rand.PCG{}
	if err := r.src.UnmarshalBinary(r.prog.RNG); err != nil {
		return fmt.Errorf("resume %s: rng state: %w", r.dir, err)
	}
	r.rng = rand.New(r.src)
	if err := r.build(); err != nil {
		return err
	}
	if err := r.checkReference(r.prog.Iteration); err != nil {
		return fmt.Errorf("resume %s: %w", r.dir, err)
	}
	if err := dropRowsAfter(r.dir, r.prog.Iteration); err != nil {
		return fmt.Errorf("resume %s: metrics: %w", r.dir, err)
	}
	if ck.PolicyAdam != nil {
		if err := r.tr.SetState(*ck.PolicyAdam); err != nil {
			return fmt.Errorf("resume %s: %w", r.dir, err)
		}
	}
	if r.critic != nil && ck.CriticAdam != nil {
		if err := r.critic.SetState(*ck.CriticAdam); err != nil {
			return fmt.Errorf("resume %s: %w", r.dir, err)
		}
	}
	return nil
}

// takeOver makes r.dir this process's to continue from ck (the run's
// checkpoint, or its warm-up: what, for the error), whose config
// checkResumeConfig accepted (changed: with keys that may change).
func (r *runner) takeOver(ck *policy.Checkpoint, changed bool, what string) error {
	// A process killed in the middle of an atomic write left its
	// temporary file; this one owns the directory now.
	if _, err := atomicfile.RemoveStale(r.dir); err != nil {
		return err
	}
	if changed {
		// config.yaml stays the record of the run (the checkpoints
		// written from now on carry the same).
		if err := atomicfile.WriteFile(filepath.Join(r.dir, ConfigFile), r.cfgYAML); err != nil {
			return err
		}
	}
	if err := r.modelDiff(ck); err != nil {
		return fmt.Errorf("the %s's model differs from the config's: %w", what, err)
	}
	return nil
}

// dropRowsAfter rewrites dir's metrics.jsonl without the rows logged after
// iteration it (a run that crashed after its last checkpoint logged them;
// the resumed run logs them again, identically).
func dropRowsAfter(dir string, it int) error {
	path := filepath.Join(dir, MetricsFile)
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	var keep []byte
	dropped := false
	for _, line := range bytes.SplitAfter(data, []byte("\n")) {
		var row struct {
			Iteration *int `json:"iteration"`
		}
		if json.Unmarshal(line, &row) == nil && row.Iteration != nil && *row.Iteration > it {
			dropped = true
			continue
		}
		keep = append(keep, line...)
	}
	if !dropped {
		return nil
	}
	return atomicfile.WriteFile(path, keep)
}
