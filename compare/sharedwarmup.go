package compare

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/gemgo/gemgo/internal/atomicfile"
	"github.com/gemgo/gemgo/policy"
	"github.com/gemgo/gemgo/train"
)

// A sweep with share_warmup: true trains one format warm-up per seed and
// starts every arm of that seed from it. The warm-up depends only on the
// seed and the settings it reads (warmupPart), which the arms must hold
// equal, so the runs are the same as with a warm-up each, to the bit.
//
// How: train saves a finished warm-up as train.WarmupFile in the run
// directory (its weights, tokenizer and the run's random state after the
// warm-up) and keeps it until the run's first checkpoint; a run directory
// holding only that file and config.yaml resumes as the run would have
// continued. The first run of a seed to finish its warm-up copies the
// file to OUT/warmups/seed<k>.safetensors at its evaluation before
// training; a later run of the seed gets a copy of it, with its own config
// in the file's "config" entry, and resumes from there. Runs of one seed
// wait for each other's warm-up in one process (Execute); across
// processes (shards) a run that finds no shared warm-up trains its own,
// with the same result.

// WarmupsDir is the folder of a sweep's output that holds the shared
// warm-ups.
const WarmupsDir = "warmups"

// SharedWarmupPath is where a sweep in out keeps seed's shared warm-up.
func SharedWarmupPath(out string, seed uint64) string {
	return filepath.Join(out, WarmupsDir, fmt.Sprintf("seed%d.safetensors", seed))
}

// warmupPart is the part of a run's config that its warm-up reads: the
// whole config less what only RL and the evaluations read (the run's
// name and length, algo, loss, optim, rollout, eval, checkpoint, and the
// sampling settings but the answer length, which bounds the warm-up's
// prompts). A section added to train.Config counts as read until it is
// listed here.
func warmupPart(c train.Config) train.Config {
	w := c
	w.Name, w.Iterations = "", 0
	w.Algo, w.Loss, w.Optim = train.Config{}.Algo, train.Config{}.Loss, train.Config{}.Optim
	w.Rollout, w.Eval, w.Checkpoint = train.Config{}.Rollout, train.Config{}.Eval, train.Config{}.Checkpoint
	w.Sample = train.Config{}.Sample
	w.Sample.MaxNewTokens = c.Sample.MaxNewTokens
	return w
}

// warmupDiff lists the keys (and values) of the warm-up settings that
// differ between a and b; empty when one warm-up serves both.
func warmupDiff(a, b train.Config) []string {
	fa, fb := flatten(warmupPart(a)), flatten(warmupPart(b))
	var diff []string
	for k, va := range fa {
		if vb, ok := fb[k]; !ok || va != vb {
			diff = append(diff, fmt.Sprintf("%s (%s vs %s)", k, va, fb[k]))
		}
	}
	for k, vb := range fb {
		if _, ok := fa[k]; !ok {
			diff = append(diff, fmt.Sprintf("%s (%s vs %s)", k, "", vb))
		}
	}
	slices.Sort(diff)
	return diff
}

// checkShareable says why runs of cfg cannot share a warm-up, or nil.
func checkShareable(cfg train.Config) error {
	switch {
	case cfg.Warmup.From != "":
		return fmt.Errorf("warmup.from = %s: the runs already start from one saved policy; drop share_warmup", cfg.Warmup.From)
	case cfg.Warmup.Steps <= 0:
		return errors.New("warmup.steps = 0: there is no warm-up to share; drop share_warmup")
	case cfg.Eval.Episodes <= 0:
		return errors.New("eval.episodes = 0: a shared warm-up is saved at the evaluation before training; set eval.episodes, or drop share_warmup")
	}
	return nil
}

// warmupGate lets one run of a seed at a time train a warm-up in this
// process, so that the other arms of the seed wait for it and start from
// it instead of training the same warm-up beside it.
type warmupGate struct {
	mu    sync.Mutex
	seeds map[uint64]chan struct{}
}

// acquire waits for seed's turn; it fails when ctx ends first.
func (g *warmupGate) acquire(ctx context.Context, seed uint64) error {
	g.mu.Lock()
	if g.seeds == nil {
		g.seeds = map[uint64]chan struct{}{}
	}
	ch, ok := g.seeds[seed]
	if !ok {
		ch = make(chan struct{}, 1)
		g.seeds[seed] = ch
	}
	g.mu.Unlock()
	select {
	case ch <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// releaser returns a function that gives seed's turn back once, however
// often it is called.
func (g *warmupGate) releaser(seed uint64) func() {
	var once sync.Once
	return func() {
		once.Do(func() {
			g.mu.Lock()
			ch := g.seeds[seed]
			g.mu.Unlock()
			<-ch
		})
	}
}

// startFromShared prepares r.Dir, an empty run directory, to resume from
// the shared warm-up at r.Warmup: config.yaml and train.WarmupFile, the
// shared file with r's config in its "config" entry. It reports false,
// and prepares nothing, when there is no shared warm-up yet.
func startFromShared(r Run) (bool, error) {
	if !fileExists(r.Warmup) {
		return false, nil
	}
	ck, err := policy.LoadCheckpoint(r.Warmup)
	if err != nil {
		return false, fmt.Errorf("shared warm-up: %w (delete it to train the warm-up again)", err)
	}
	was, err := train.Parse([]byte(ck.Meta["config"]), nil)
	if err != nil {
		return false, fmt.Errorf("shared warm-up %s: its config: %w (delete it to train the warm-up again)", r.Warmup, err)
	}
	if d := warmupDiff(was, r.Cfg); len(d) > 0 {
		return false, fmt.Errorf("shared warm-up %s was trained with other warm-up settings than %s seed %d's: %s; delete it (or use another -out) to train the warm-up again", r.Warmup, r.Arm, r.Seed, strings.Join(d, ", "))
	}
	want, err := r.Cfg.Marshal()
	if err != nil {
		return false, err
	}
	ck.Meta["config"] = string(want)
	if err := os.MkdirAll(r.Dir, 0o755); err != nil {
		return false, err
	}
	// config.yaml first: a directory holding it alone is a fresh start
	// (State), one holding both resumes.
	if err := atomicfile.WriteFile(filepath.Join(r.Dir, train.ConfigFile), want); err != nil {
		return false, err
	}
	if err := policy.SaveCheckpoint(filepath.Join(r.Dir, train.WarmupFile), ck); err != nil {
		return false, fmt.Errorf("shared warm-up: %w", err)
	}
	return true, nil
}

// saveShared copies dir's finished warm-up to path, unless path exists.
func saveShared(dir, path string) error {
	if fileExists(path) {
		return nil
	}
	data, err := os.ReadFile(filepath.Join(dir, train.WarmupFile))
	if err != nil {
		return fmt.Errorf("sharing the warm-up: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return atomicfile.WriteFile(path, data)
}
