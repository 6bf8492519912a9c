package eval

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gemgo/gemgo/internal/shard"
)

// ShardsDir is the folder of an output directory that holds its shards'
// directories, one per shard: shards/<i>-of-<n>/, each with its own lock
// and results.jsonl, so shards running at once never write one file.
const ShardsDir = "shards"

// ShardDir is the directory shard s of an evaluation into dir writes.
func ShardDir(dir string, s shard.Shard) string {
	return filepath.Join(dir, ShardsDir, s.Name())
}

// ErrOtherSettings is what Run's error wraps when the output directory
// holds episodes played with other settings than the run's.
var ErrOtherSettings = errors.New("played with other settings")

// sameSettings fails when a record of path was played with other
// settings than settings (Config.EpisodeHash).
func sameSettings(path string, recs []Record, settings string) error {
	for i, r := range recs {
		if r.Settings != settings {
			return fmt.Errorf("%s line %d was %w (env options, tools, seed base, temperature, top-p, max tokens, stop or system prompt: hash %s, this run's %s); choose a new -out directory", path, i+1, ErrOtherSettings, r.Settings, settings)
		}
	}
	return nil
}

// shardRecords reads the records of every shard directory of dir, in the
// order of their names (none when there are none), each checked against
// settings.
func shardRecords(dir, settings string) ([]Record, error) {
	names, err := shardNames(dir)
	if err != nil {
		return nil, err
	}
	var recs []Record
	for _, name := range names {
		path := filepath.Join(dir, ShardsDir, name, ResultsFile)
		r, err := ReadResults(path)
		if errors.Is(err, os.ErrNotExist) {
			continue // a shard that has not opened its file yet
		}
		if err != nil {
			return nil, err
		}
		if err := sameSettings(path, r, settings); err != nil {
			return nil, err
		}
		recs = append(recs, r...)
	}
	return recs, nil
}

// shardNames lists the shard directories of dir ("i-of-n"), sorted.
func shardNames(dir string) ([]string, error) {
	ents, err := os.ReadDir(filepath.Join(dir, ShardsDir))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("shards: %w", err)
	}
	var names []string
	for _, e := range ents {
		var i, n int
		if e.IsDir() {
			if _, err := fmt.Sscanf(e.Name(), "%d-of-%d", &i, &n); err == nil {
				names = append(names, e.Name())
			}
		}
	}
	slices.Sort(names)
	return names, nil
}

// shardCount is the one shard count of dir's shard directories; 0 when
// there are none or they disagree (the work was split two ways).
func shardCount(dir string) int {
	names, _ := shardNames(dir)
	count := 0
	for _, name := range names {
		var i, n int
		_, _ = fmt.Sscanf(name, "%d-of-%d", &i, &n)
		if count != 0 && n != count {
			return 0
		}
		count = n
	}
	return count
}

// keyed is a Key with its policy's position in the run.
type keyed struct {
	Key
	p int
}

// allKeys is every episode of the run, in one fixed order: policy, env,
// seed, sample. A shard's episodes are their positions in it mod the
// shard count, so the split depends on the config alone.
func allKeys(cfg *Config, pols []Named) []keyed {
	var keys []keyed
	for pi, p := range pols {
		for _, id := range cfg.Envs {
			for i := 0; i < cfg.Episodes; i++ {
				for s := 0; s < cfg.Samples; s++ {
					keys = append(keys, keyed{Key{p.Name, id, cfg.SeedBase + uint64(i), s}, pi})
				}
			}
		}
	}
	return keys
}

// MissingError is a merge's answer when episodes have no finished record:
// how many, and, when the shard count is known, which shards hold them.
type MissingError struct {
	Episodes int // without a finished record
	Total    int // in the run
	Count    int // the shard count; 0 when unknown
	// Shards maps each shard index with missing episodes to their number.
	Shards map[int]int
}

func (e *MissingError) Error() string {
	if e.Count == 0 {
		return fmt.Sprintf("%d of %d episodes have no finished record: run without -merge to play them", e.Episodes, e.Total)
	}
	var parts []string
	for _, i := range e.Indexes() {
		parts = append(parts, fmt.Sprintf("shard %d/%d: %d", i, e.Count, e.Shards[i]))
	}
	return fmt.Sprintf("%d of %d episodes have no finished record (%s)", e.Episodes, e.Total, strings.Join(parts, ", "))
}

// Indexes are the shards with missing episodes, sorted.
func (e *MissingError) Indexes() []int {
	var idx []int
	for i := range e.Shards {
		idx = append(idx, i)
	}
	slices.Sort(idx)
	return idx
}

func missingError(opt Options, total int, missing []int) *MissingError {
	e := &MissingError{Episodes: len(missing), Total: total, Count: opt.Shards}
	if e.Count == 0 {
		e.Count = shardCount(opt.Dir)
	}
	if e.Count > 0 {
		e.Shards = map[int]int{}
		for _, j := range missing {
			e.Shards[shard.Of(j, e.Count)]++
		}
	}
	return e
}
