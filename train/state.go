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
	var p progress
	var err error
	get := func(k string) string {
		v, ok := m[k]
		if !ok && err == nil {
			err = fmt.Errorf("checkpoint metadata has no %q: it was not written by cmd/train", k)
		}
		return v
	}
	atoi := func(k string) int {
		n, e := strconv.Atoi(get(k))
		if e != nil && err == nil {
			err = fmt.Errorf("checkpoint metadata %q: %v", k, e)
		}
		return n
	}
	atof := func(k string) float64 {
		f, e := strconv.ParseFloat(get(k), 64)
		if e != nil && err == nil {
			err = fmt.Errorf("checkpoint metadata %q: %v", k, e)
		}
		return f
	}
	p.Iteration, p.EnvSteps, p.Episodes = atoi("iteration"), atoi("env_steps"), atoi("episodes")
	p.BestSuccess, p.WallSeconds = atof("best_success"), atof("wall_seconds")
	if p.RNG, err = base64.StdEncoding.DecodeString(get("rng")); err != nil {
		return p, fmt.Errorf("checkpoint metadata \"rng\": %w", err)
	}
	var src rand.PCG
	if e := src.UnmarshalBinary(p.RNG); e != nil {
		return p, fmt.Errorf("checkpoint metadata \"rng\": %w", e)
	}
	return p, err
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
	ck.Meta["config"] = string(r.cfgYAML)
	if err := policy.SaveCheckpoint(filepath.Join(r.dir, name), ck); err != nil {
		return err
	}
	// The run resumes from the checkpoint now, not from its warm-up.
	if err := os.Remove(filepath.Join(r.dir, WarmupFile)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}
