package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/compare"
	"github.com/gemgo/gemgo/internal/cli"
)

// untimed is summary.json with its wall_s fields dropped (the one thing
// two machines do not share) and how many there were.
func untimed(t *testing.T, dir string) (any, int) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, compare.SummaryFile))
	require.NoError(t, err)
	var v any
	require.NoError(t, json.Unmarshal(b, &v))
	n := 0
	var strip func(any)
	strip = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			if _, ok := x["wall_s"]; ok {
				delete(x, "wall_s")
				n++
			}
			for _, e := range x {
				strip(e)
			}
		case []any:
			for _, e := range x {
				strip(e)
			}
		}
	}
	strip(v)
	return v, n
}

// The suite as two shards (one by Slurm's min/max variables), merged,
// gives the one process's summary.json, timing aside; the merge before
// the second shard names that shard's runs and command.
func TestShardsMergeToTheOneProcessSummary(t *testing.T) {
	dir := suiteDir(t)
	suite := filepath.Join(dir, "suite.yaml")
	var stdout, stderr bytes.Buffer
	one := filepath.Join(dir, "one")
	require.Equal(t, cli.ExitOK, run(context.Background(), []string{"-config", suite, "-out", one, "-parallel", "2"}, &stdout, &stderr), stderr.String())
	want, n := untimed(t, one)
	require.Equal(t, 2+6, n, "one wall_s per config and per seed")

	sharded := filepath.Join(dir, "sharded")
	stdout.Reset()
	require.Equal(t, cli.ExitOK, run(context.Background(), []string{"-config", suite, "-out", sharded, "-shard", "0/2"}, &stdout, &stderr), stderr.String())
	assert.Contains(t, stdout.String(), "shard 0/2: 3 of 6 runs")
	assert.NoFileExists(t, filepath.Join(sharded, compare.SummaryFile))

	stderr.Reset()
	require.Equal(t, cli.ExitFailed, run(context.Background(), []string{"-config", suite, "-out", sharded, "-merge"}, &stdout, &stderr))
	// plan order: guess seeds 1-3, bits seeds 1-3; shard 1 has 1, 3 and 5
	assert.Contains(t, stderr.String(), "baselines: not merged: 3 runs are not finished:\n"+
		"  [guess seed2]: not started ("+filepath.Join(sharded, "guess", "seed2")+")\n"+
		"  [bits seed1]: not started ("+filepath.Join(sharded, "bits", "seed1")+")\n"+
		"  [bits seed3]: not started ("+filepath.Join(sharded, "bits", "seed3")+")\n"+
		"baselines: missing shard 1/2: baselines -config "+suite+" -out "+sharded+" -shard 1/2\n")

	t.Setenv("SLURM_ARRAY_TASK_ID", "8")
	t.Setenv("SLURM_ARRAY_TASK_MIN", "7")
	t.Setenv("SLURM_ARRAY_TASK_MAX", "8")
	stdout.Reset()
	require.Equal(t, cli.ExitOK, run(context.Background(), []string{"-config", suite, "-out", sharded}, &stdout, &stderr), stderr.String())
	assert.Contains(t, stdout.String(), "shard 1/2: 3 of 6 runs")
	t.Setenv("SLURM_ARRAY_TASK_ID", "")

	require.Equal(t, cli.ExitOK, run(context.Background(), []string{"-config", suite, "-out", sharded, "-merge"}, &stdout, &stderr), stderr.String())
	got, _ := untimed(t, sharded)
	assert.Equal(t, want, got)
}
