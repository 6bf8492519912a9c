package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/compare"
	"github.com/gemgo/gemgo/internal/cli"
)

// twoArms is two algorithms × three seeds of the tiny model.
var twoArms = strings.Replace(sweep, "seeds:", "  - name: rebn\n    set: [algo.name=rebn]\nseeds:", 1)

// summaryWithoutTiming is summary.json with every wall_s field dropped:
// the time a run took is the one thing two machines do not share.
func summaryWithoutTiming(t *testing.T, dir string) any {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, compare.SummaryFile))
	require.NoError(t, err)
	var v any
	require.NoError(t, json.Unmarshal(b, &v))
	var strip func(any) int
	strip = func(v any) int {
		n := 0
		switch x := v.(type) {
		case map[string]any:
			if _, ok := x["wall_s"]; ok {
				delete(x, "wall_s")
				n++
			}
			for _, e := range x {
				n += strip(e)
			}
		case []any:
			for _, e := range x {
				n += strip(e)
			}
		}
		return n
	}
	require.Equal(t, 2+6, strip(v), "one wall_s per arm and per seed")
	return v
}

// A sweep run as three shards (two by -shard, one as a Kubernetes
// Indexed Job's pod) and merged gives the one process's summary.json,
// timing aside; a merge before the last shard lists its runs and its
// command, and writes no summary.
func TestShardsMergeToTheOneProcessSummary(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sweep.yaml")
	require.NoError(t, os.WriteFile(path, []byte(twoArms), 0o644))
	var stdout, stderr bytes.Buffer
	one := filepath.Join(dir, "one")
	require.Equal(t, cli.ExitOK, run(context.Background(), []string{"-config", path, "-out", one, "-parallel", "2"}, &stdout, &stderr), stderr.String())
	want := summaryWithoutTiming(t, one)
	require.Contains(t, stdout.String(), "2 arms × 3 seeds = 6 runs")

	sharded := filepath.Join(dir, "sharded")
	for _, s := range []string{"0/3", "2/3"} {
		stdout.Reset()
		require.Equal(t, cli.ExitOK, run(context.Background(), []string{"-config", path, "-out", sharded, "-parallel", "2", "-shard", s}, &stdout, &stderr), stderr.String())
		assert.Contains(t, stdout.String(), "shard "+s+": 2 of 6 runs")
		assert.Contains(t, stdout.String(), "when every shard is: compare -config "+path+" -out "+sharded+" -parallel 2 -merge\n")
	}
	assert.NoFileExists(t, filepath.Join(sharded, compare.SummaryFile), "shards leave the summary to the merge")

	stderr.Reset()
	require.Equal(t, cli.ExitFailed, run(context.Background(), []string{"-config", path, "-out", sharded, "-merge"}, &stdout, &stderr))
	// plan order: reinforce seeds 1-3 (0-2), rebn seeds 1-3 (3-5); shard 1 has 1 and 4
	assert.Contains(t, stderr.String(), "compare: not merged: 2 runs are not finished:\n"+
		"  [reinforce seed2]: not started ("+filepath.Join(sharded, "reinforce", "seed2")+")\n"+
		"  [rebn seed2]: not started ("+filepath.Join(sharded, "rebn", "seed2")+")\n"+
		"compare: missing shard 1/3: compare -config "+path+" -out "+sharded+" -shard 1/3\n"+
		"compare: as a Slurm array: sbatch --array=1 ")
	assert.NoFileExists(t, filepath.Join(sharded, compare.SummaryFile))

	t.Setenv("JOB_COMPLETION_INDEX", "1")
	stdout.Reset()
	require.Equal(t, cli.ExitOK, run(context.Background(), []string{"-config", path, "-out", sharded, "-shards", "3"}, &stdout, &stderr), stderr.String())
	assert.Contains(t, stdout.String(), "shard 1/3: 2 of 6 runs")
	t.Setenv("JOB_COMPLETION_INDEX", "")

	stdout.Reset()
	require.Equal(t, cli.ExitOK, run(context.Background(), []string{"-config", path, "-out", sharded, "-merge"}, &stdout, &stderr), stderr.String())
	assert.NotContains(t, stdout.String(), "finished in", "the merge trains nothing")
	assert.Equal(t, want, summaryWithoutTiming(t, sharded))

	// A shard rerun skips its finished runs.
	stdout.Reset()
	require.Equal(t, cli.ExitOK, run(context.Background(), []string{"-config", path, "-out", sharded, "-shard", "0/3"}, &stdout, &stderr), stderr.String())
	assert.Equal(t, 2, strings.Count(stdout.String(), "skipped (already finished)"), stdout.String())
}

// -emit slurm prints one array task a run, whose command is this one's
// with -shards.
func TestEmitSlurm(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sweep.yaml")
	require.NoError(t, os.WriteFile(path, []byte(twoArms), 0o644))
	var stdout, stderr bytes.Buffer
	out := filepath.Join(dir, "out")
	require.Equal(t, cli.ExitOK, run(context.Background(), []string{"-config", path, "-out", out, "-emit", "slurm", "-emit-time", "00:20:00"}, &stdout, &stderr), stderr.String())
	lines := strings.Split(stdout.String(), "\n")
	assert.Equal(t, "#SBATCH --array=0-5", lines[2])
	assert.Equal(t, "#SBATCH --time=00:20:00", lines[5])
	assert.Equal(t, "exec compare -config "+path+" -out "+out+" -shards 6", lines[len(lines)-2])
	assert.NoDirExists(t, filepath.Join(out, "reinforce"), "-emit runs nothing")
}
