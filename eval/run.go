package eval

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/internal/atomicfile"
	"github.com/gemgo/gemgo/internal/fslock"
	"github.com/gemgo/gemgo/internal/shard"
	"github.com/gemgo/gemgo/metrics"
)

// Named is a policy with the spec it was opened from (its name in results).
type Named struct {
	Name   string
	Policy Policy
	Note   string // shown in the report
	// ID is what the policy is beyond its name: a checkpoint's content
	// hash (Opened.ID). Records keep it, and a rerun reuses a record only
	// when the ID is the same, so a replaced checkpoint file is played
	// anew. "" for a policy known by its name alone.
	ID string
}

// Metadata is metadata.json.
type Metadata struct {
	Config     Config       `json:"config"`
	Hash       string       `json:"config_hash"`
	Settings   string       `json:"settings_hash"` // Config.EpisodeHash
	Policies   []PolicyInfo `json:"policies"`
	Aggregates []Aggregate  `json:"aggregates"` // policy-major, in config order
	Played     int          `json:"played"`     // episodes played by this run
	WallS      float64      `json:"wall_s"`     // this run's time
	Complete   bool         `json:"complete"`   // every episode of the config has a record without error
}

// PolicyInfo describes one policy of the run.
type PolicyInfo struct {
	Name string `json:"name"`
	Note string `json:"note"`
	ID   string `json:"id,omitempty"` // Named.ID
}

// Options are the parts of a run outside its Config.
type Options struct {
	Dir      string         // the output directory (created)
	Registry *envs.Registry // where the env ids are made
	Progress io.Writer      // progress lines (nil: none)
	TTY      bool           // a live progress bar instead of lines
	// Shard, when on, plays only its episodes (the full job list's
	// positions j with j mod Count = Index) into its own directory,
	// ShardDir(Dir, Shard), and writes no aggregate files; see shards.go.
	Shard shard.Shard
	// Merge plays nothing: it aggregates when every episode has a record
	// (in Dir or its shards) and otherwise fails with a *MissingError.
	Merge bool
	// Shards is the shard count a MissingError attributes episodes to;
	// 0: the count of the shard directories found (when they agree).
	Shards int
}

// Run plays every episode of cfg that dir's results.jsonl does not hold
// finished (a record without error, of the same policy ID), appending
// each as it ends, then writes metadata.json, report.html and results.md.
// When ctx is done it stops starting episodes, drops the ones in flight
// (a rerun plays them) and returns ctx's error after writing the files
// for what finished. One Run at a time has a directory: it holds the
// directory's lock (internal/fslock) from before it reads anything until
// it returns, and a second Run, in this process or another, fails at
// once. With opt.Shard the directory is ShardDir(opt.Dir, opt.Shard) and
// only the shard's episodes are played; without, the records of every
// shard directory count as played too (shards.go).
func Run(ctx context.Context, cfg Config, pols []Named, opt Options) (Metadata, error) {
	if err := cfg.Validate(); err != nil {
		return Metadata{}, err
	}
	if len(pols) != len(cfg.Policies) {
		return Metadata{}, fmt.Errorf("%d policies opened for %d specs", len(pols), len(cfg.Policies))
	}
	for _, id := range cfg.Envs {
		e, err := newEnv(opt.Registry, &cfg, id) // with its tools: one that cannot work here fails now
		if err != nil {
			return Metadata{}, fmt.Errorf("-env %s: %w", id, err)
		}
		_ = envs.Close(e)
	}
	dir := opt.Dir
	if opt.Shard.On() {
		dir = ShardDir(opt.Dir, opt.Shard)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return Metadata{}, fmt.Errorf("results directory: %w", err)
	}
	unlock, err := fslock.Lock(dir)
	if errors.Is(err, fslock.ErrHeld) {
		return Metadata{}, fmt.Errorf("%w: another eval is running in this directory; wait for it to finish, or choose another -out directory", err)
	}
	if err != nil {
		return Metadata{}, fmt.Errorf("results directory: %w", err)
	}
	defer unlock()
	path := filepath.Join(dir, ResultsFile)
	rf, recs, err := openResults(path)
	if err != nil {
		return Metadata{}, err
	}
	defer rf.Close()
	settings := cfg.EpisodeHash()
	if err := sameSettings(path, recs, settings); err != nil {
		return Metadata{}, err
	}
	if !opt.Shard.On() { // the whole run counts what its shards played
		more, err := shardRecords(opt.Dir, settings)
		if err != nil {
			return Metadata{}, err
		}
		recs = append(recs, more...)
	}
	ids := map[string]string{}
	for _, p := range pols {
		ids[p.Name] = p.ID
	}
	byKey, stale, err := episodes(path, recs, ids)
	if err != nil {
		return Metadata{}, err
	}
	type job struct {
		p int
		k Key
	}
	var jobs []job
	var missing []int // the full list's positions of the jobs
	all := allKeys(&cfg, pols)
	for j, k := range all {
		if !opt.Shard.Mine(j) {
			continue
		}
		if r, ok := byKey[k.Key]; !ok || r.Error != "" {
			jobs = append(jobs, job{k.p, k.Key})
			missing = append(missing, j)
		}
	}
	if opt.Merge && len(jobs) > 0 {
		return Metadata{}, missingError(opt, len(all), missing)
	}
	if opt.Progress != nil {
		for _, p := range pols {
			if n := stale[p.Name]; n > 0 {
				fmt.Fprintf(opt.Progress, "eval: %d records of %s were played by other content than its file has now (%s): they stay in %s, left out, and its episodes are played anew\n", n, p.Name, p.ID, ResultsFile)
			}
		}
	}
	start := time.Now()
	var prog *metrics.Progress
	if opt.Progress != nil && len(jobs) > 0 {
		prog = metrics.NewProgress(opt.Progress, len(jobs), opt.TTY)
		prog.Printf("eval: %d episodes to play (%d already in %s)", len(jobs), len(byKey), dir)
	}
	// 1. Play: workers take jobs in order; this goroutine writes records.
	jobc := make(chan job)
	out := make(chan Record)
	var wg sync.WaitGroup
	for range min(cfg.Concurrency, max(len(jobs), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobc {
				rec := play(ctx, pols[j.p].Policy, opt.Registry, &cfg, j.k)
				rec.PolicyID = pols[j.p].ID
				if ctx.Err() != nil {
					continue // cut short: a rerun plays it
				}
				out <- rec
			}
		}()
	}
	go func() {
		defer close(jobc)
		for _, j := range jobs {
			select {
			case jobc <- j:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(out) }()
	played, solved, errs := 0, 0, 0
	var werr error
	for rec := range out {
		if werr != nil {
			continue
		}
		if werr = rf.append(rec); werr != nil {
			continue
		}
		byKey[rec.Key] = rec
		played++
		if rec.Success {
			solved++
		}
		if rec.Error != "" {
			errs++
			if prog != nil && errs <= 5 {
				prog.Printf("episode %s %s seed %d sample %d: %s", rec.Policy, rec.Env, rec.Seed, rec.Sample, rec.Error)
			}
		}
		if prog != nil && (played%max(1, len(jobs)/50) == 0 || played == len(jobs)) { // about 50 lines
			prog.Update(played, map[string]float64{metrics.KeySuccess: float64(solved) / float64(played), metrics.KeyWallSeconds: time.Since(start).Seconds()})
		}
	}
	if prog != nil {
		if err := prog.Finish(); err != nil && werr == nil {
			werr = err
		}
	}
	if werr != nil {
		return Metadata{}, werr
	}
	// 2. Aggregate and report (a shard leaves that to the merge).
	if opt.Shard.On() {
		return Metadata{Config: cfg, Hash: cfg.Hash(), Settings: settings, Played: played, WallS: time.Since(start).Seconds()}, ctx.Err()
	}
	md := Metadata{Config: cfg, Hash: cfg.Hash(), Settings: settings, Played: played, WallS: time.Since(start).Seconds(), Complete: true}
	for _, p := range pols {
		md.Policies = append(md.Policies, PolicyInfo{Name: p.Name, Note: p.Note, ID: p.ID})
		for _, id := range cfg.Envs {
			rng := rand.New(rand.NewPCG(1, 2)) // fixed, per aggregate: the same records give the same intervals
			a := aggregate(&cfg, p.Name, id, byKey, rng)
			if a.Missing > 0 || a.Errors > 0 {
				md.Complete = false
			}
			md.Aggregates = append(md.Aggregates, a)
		}
	}
	if err := writeOutputs(opt.Dir, md); err != nil {
		return md, err
	}
	return md, ctx.Err()
}

// writeOutputs writes metadata.json, results.md and report.html.
func writeOutputs(dir string, md Metadata) error {
	b, err := json.MarshalIndent(md, "", "  ")
	if err != nil {
		return fmt.Errorf("metadata: %w", err)
	}
	if err := atomicfile.WriteFile(filepath.Join(dir, MetadataFile), append(b, '\n')); err != nil {
		return fmt.Errorf("metadata: %w", err)
	}
	if err := atomicfile.WriteFile(filepath.Join(dir, TableFile), []byte(Markdown(md))); err != nil {
		return fmt.Errorf("table: %w", err)
	}
	return WriteReport(filepath.Join(dir, ReportFile), md)
}
