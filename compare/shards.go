package compare

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/gemgo/gemgo/internal/shard"
)

// ShardsDir is the folder of a sweep's output directory where each shard
// leaves an empty marker file, "i-of-n", when it starts: a merge reads the
// shard count from them. Shards never write one file: each run has its
// own directory, and a marker is its shard's alone.
const ShardsDir = "shards"

// Select is the runs of shard s: runs[j] for j mod Count = Index (every
// run when s is off). runs is in plan order, which depends on the sweep
// file alone, so every shard computes the same split.
func Select(runs []Run, s shard.Shard) []Run {
	var out []Run
	for j, r := range runs {
		if s.Mine(j) {
			out = append(out, r)
		}
	}
	return out
}

// MarkShard leaves shard s's marker in out.
func MarkShard(out string, s shard.Shard) error {
	dir := filepath.Join(out, ShardsDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(filepath.Join(dir, s.Name()), os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	return f.Close()
}

// ShardCount is the shard count of out's markers; 0 when there are none
// or they disagree.
func ShardCount(out string) int {
	ents, err := os.ReadDir(filepath.Join(out, ShardsDir))
	if err != nil {
		return 0
	}
	count := 0
	for _, e := range ents {
		var i, n int
		if _, err := fmt.Sscanf(e.Name(), "%d-of-%d", &i, &n); err != nil {
			continue
		}
		if count != 0 && n != count {
			return 0
		}
		count = n
	}
	return count
}

// Pending is a run a merge still lacks: its position in the plan and its
// state.
type Pending struct {
	Index int
	Run   Run
	State RunState
	Err   error // the directory holds a run of another config, or cannot be read
}

// Missing lists the runs that are not Complete, in plan order.
func Missing(runs []Run) []Pending {
	var out []Pending
	for j, r := range runs {
		st, err := State(r)
		if err != nil || st != Complete {
			out = append(out, Pending{Index: j, Run: r, State: st, Err: err})
		}
	}
	return out
}

// Describe is one line for a pending run: its label and what its
// directory holds.
func (p Pending) Describe() string {
	switch {
	case p.Err != nil:
		return fmt.Sprintf("%s: %v", label(p.Run), p.Err)
	case p.State == Partial:
		return fmt.Sprintf("%s: half done (a checkpoint in %s: it resumes)", label(p.Run), p.Run.Dir)
	}
	return fmt.Sprintf("%s: not started (%s)", label(p.Run), p.Run.Dir)
}

// PrintMissing writes a merge's list of pending runs: each run, then,
// when count (the shard count) is known, each shard that holds one with
// the command that runs it, and the Slurm array line; else the command
// that runs them all in one process. prog and args are the command line
// of the merge.
func PrintMissing(w io.Writer, prog string, pend []Pending, count int, args []string) {
	fmt.Fprintf(w, "%s: not merged: %d runs are not finished:\n", prog, len(pend))
	for _, p := range pend {
		fmt.Fprintf(w, "  %s\n", p.Describe())
	}
	if count == 0 {
		fmt.Fprintf(w, "%s: run them with: %s (or give -shards N to list the shards)\n", prog, shard.PlainCommand(prog, args))
		return
	}
	var idx []int
	for _, p := range pend {
		if i := shard.Of(p.Index, count); !slices.Contains(idx, i) {
			idx = append(idx, i)
		}
	}
	slices.Sort(idx)
	for _, i := range idx {
		fmt.Fprintf(w, "%s: missing shard %d/%d: %s\n", prog, i, count, shard.Command(prog, args, shard.Shard{Index: i, Count: count}))
	}
	fmt.Fprintf(w, "%s: as a Slurm array: sbatch --array=%s SCRIPT (the script that ran the shards)\n", prog, shard.ArrayList(idx))
}
