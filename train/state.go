package train

import (
	"encoding/base64"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"

	"github.com/gemgo/gemgo/policy"
)

// Files in a run directory.
const (
	ConfigFile     = "config.yaml"            // the resolved config
	CheckpointFile = "checkpoint.safetensors" // the latest checkpoint
	FinalFile      = "final.safetensors"      // the policy at the end of the run
	ReferenceFile  = "reference.safetensors"  // the post-warm-up policy (KL penalty)
	WarmupFile     = "warmup.safetensors"     // the warm-up so far, until the first checkpoint
	MetricsFile    = "metrics.jsonl"
	ReportFile     = "report.html"
)

// progress is the part of a run's state that is not weights: what a
// checkpoint needs, with the weights, to resume exactly.
type progress struct {
	Iteration   int
	EnvSteps    int
	Episodes    int
	BestSuccess float64
	WallSeconds float64 // training time before this process
	RNG         []byte  // the run's PCG state after Iteration
}

func (p progress) meta() map[string]string {
	return map[string]string{
		"iteration":    strconv.Itoa(p.Iteration),
		"env_steps":    strconv.Itoa(p.EnvSteps),
		"episodes":     strconv.Itoa(p.Episodes),
		"best_success": strconv.FormatFloat(p.BestSuccess, 'g', -1, 64),
		"wall_seconds": strconv.FormatFloat(p.WallSeconds, 'g', -1, 64),
		"rng":          base64.StdEncoding.EncodeToString(p.RNG),
	}
}

func progressFromMeta(m map[string]string) (progress, error) {
	mr := metaReader{m: m, what: "checkpoint"}
	p := progress{
		Iteration: mr.int("iteration"), EnvSteps: mr.int("env_steps"), Episodes: mr.int("episodes"),
		BestSuccess: mr.float("best_success"), WallSeconds: mr.float("wall_seconds"), RNG: mr.rng("rng"),
	}
	return p, mr.err
}

// metaReader reads the values of a checkpoint's metadata written by
// cmd/train, keeping the first problem met in err.
type metaReader struct {
	m    map[string]string
	what string // "checkpoint", "warm-up": for the errors
	err  error
}

func (r *metaReader) fail(format string, a ...any) {
	if r.err == nil {
		r.err = fmt.Errorf(r.what+" metadata "+format, a...)
	}
}

func (r *metaReader) str(k string) string {
	v, ok := r.m[k]
	if !ok {
		r.fail("has no %q: it was not written by cmd/train", k)
	}
	return v
}

func (r *metaReader) int(k string) int {
	n, err := strconv.Atoi(r.str(k))
	if err != nil {
		r.fail("%q: %v", k, err)
	}
	return n
}

func (r *metaReader) float(k string) float64 {
	f, err := strconv.ParseFloat(r.str(k), 64)
	if err != nil {
		r.fail("%q: %v", k, err)
	}
	return f
}

// rng reads a PCG state written with base64.
func (r *metaReader) rng(k string) []byte {
	b, err := base64.StdEncoding.DecodeString(r.str(k))
	if err == nil {
		err = new(rand.PCG).UnmarshalBinary(b)
	}
	if err != nil {
		r.fail("%q: %v", k, err)
	}
	return b
}

// saveCheckpoint writes the run's state to dir/name atomically.
func (r *runner) saveCheckpoint(name string) error {
	p := r.prog
	p.WallSeconds = r.result().Wall.Seconds() // this process's time too: a resumed run continues the clock
	ck := &policy.Checkpoint{Policy: r.w, Tokenizer: r.tok, Meta: p.meta()}
	ps := r.tr.State()
	ck.PolicyAdam = &ps
	if r.critic != nil {
		cs := r.critic.State()
		ck.Critic, ck.CriticAdam = r.cw, &cs
	}
	ck.Meta = r.checkpointMeta(ck.Meta)
	if err := policy.SaveCheckpoint(filepath.Join(r.dir, name), ck); err != nil {
		return err
	}
	// The run resumes from the checkpoint now, not from its warm-up.
	if err := os.Remove(filepath.Join(r.dir, WarmupFile)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}
