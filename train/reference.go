package train

import (
	"fmt"
	"path/filepath"
	"strconv"

	"github.com/gemgo/gemgo/policy"
)

// The reference policy of the KL penalty is the post-warm-up policy; with
// loss.kl_reset_every = R it moves to the current policy after every R-th
// iteration (a periodic reset of the reference, as in ProRL, arXiv
// 2505.24864): the penalty then bounds how far R iterations can move the
// policy instead of tying it to the warm-up forever.
//
// ReferenceFile holds the reference with the iteration it was taken at.
// A reset is written after the checkpoint of its iteration, so a run
// interrupted between the two writes resumes from that checkpoint and
// redoes the reset; a resumed run always finds the reference it needs.

// refIterationKey is the reference file's metadata key for its iteration.
const refIterationKey = "reference_iteration"

// lastReset is the iteration of the latest reference reset at or before it
// (0: the post-warm-up policy).
func (c *Config) lastReset(it int) int {
	if c.Loss.KLResetEvery <= 0 {
		return 0
	}
	return it / c.Loss.KLResetEvery * c.Loss.KLResetEvery
}

// resetDue reports whether the reference moves after iteration it.
func (c *Config) resetDue(it int) bool {
	return c.Loss.KLCoef > 0 && c.Loss.KLResetEvery > 0 && it%c.Loss.KLResetEvery == 0 && it < c.Iterations
}

// saveReference writes w as the reference taken at iteration it, with the
// run's config and serving settings as a checkpoint has them, so that cmd/eval and cmd/serve read
// the file as the policy it is (the warmed-up one at iteration 0) with the
// run's history format and answer length.
func (r *runner) saveReference(w *policy.Weights, it int) error {
	meta := r.checkpointMeta(map[string]string{refIterationKey: strconv.Itoa(it)})
	ck := &policy.Checkpoint{Policy: w, Tokenizer: r.tok, Meta: meta}
	if err := policy.SaveCheckpoint(filepath.Join(r.dir, ReferenceFile), ck); err != nil {
		return fmt.Errorf("reference policy for the KL penalty: %w", err)
	}
	return nil
}

// loadReference makes the reference trainer from ReferenceFile and sets
// r.refIter.
func (r *runner) loadReference() error {
	ck, err := policy.LoadCheckpoint(filepath.Join(r.dir, ReferenceFile))
	if err != nil {
		return fmt.Errorf("reference policy for the KL penalty: %w", err)
	}
	r.refIter = 0
	if s, ok := ck.Meta[refIterationKey]; ok {
		if r.refIter, err = strconv.Atoi(s); err != nil {
			return fmt.Errorf("reference policy for the KL penalty: metadata %q = %q: %v", refIterationKey, s, err)
		}
	}
	if err := ck.Policy.Config.Diff(r.w.Config); err != nil {
		return fmt.Errorf("reference policy for the KL penalty: its model differs from the run's: %w", err)
	}
	r.ref, err = policy.NewTrainer(ck.Policy, policy.OptimConfig{})
	return err
}

// resetReference moves the reference to the current policy after
// iteration it, in memory and on disk.
func (r *runner) resetReference(it int) error {
	rw := r.ref.Weights()
	for i := range rw.Params {
		copy(rw.Params[i].Data, r.w.Params[i].Data)
	}
	r.refIter = it
	return r.saveReference(rw, it)
}

// checkReference makes a resumed run's reference the one of its checkpoint
// (iteration it): it redoes a reset that an interruption cut off, and
// refuses a reference file from another point of the run.
func (r *runner) checkReference(it int) error {
	if r.ref == nil {
		return nil
	}
	want := r.cfg.lastReset(it)
	switch {
	case r.refIter == want:
		return nil
	case r.refIter < want && want == it:
		return r.resetReference(it)
	}
	return fmt.Errorf("%s is the policy of iteration %d, but the checkpoint (iteration %d) needs the reference of iteration %d: the run directory mixes two runs; start a new run", ReferenceFile, r.refIter, it, want)
}
