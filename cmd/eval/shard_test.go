package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/eval"
	"github.com/gemgo/gemgo/internal/cli"
)

// latencyCell is the last cell of a results.md row, the mean latency: wall
// time, the one thing two plays of the same episodes do not share.
var latencyCell = regexp.MustCompile(`\| [0-9.]+ \|\n`)

func readTable(t *testing.T, dir string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, eval.TableFile))
	require.NoError(t, err)
	return latencyCell.ReplaceAllString(string(b), "| (latency) |\n")
}

// Four shards (three by -shard, one by Slurm's variables) over 400
// episodes, merged, give the results.md of one process; a merge before
// the last shard names it with its command.
func TestShardsMergeToTheOneProcessTable(t *testing.T) {
	dir := t.TempDir()
	base := []string{"-policy", "random", "-policy", "oracle", "-env", "game:GuessTheNumber-v0-easy", "-episodes", "200"}
	with := func(more ...string) []string { return append(append([]string{}, base...), more...) }
	var out, errb bytes.Buffer
	one := filepath.Join(dir, "one")
	require.Equal(t, cli.ExitOK, run(context.Background(), with("-out", one), &out, &errb), errb.String())
	want := readTable(t, one)
	require.Contains(t, want, "1.000 [1.000, 1.000]", "the oracle's row")
	require.Equal(t, 2, strings.Count(want, "(latency)"), want)

	sharded := filepath.Join(dir, "sharded")
	for i := range 3 {
		errb.Reset()
		out.Reset()
		require.Equal(t, cli.ExitOK, run(context.Background(), with("-out", sharded, "-shard", []string{"0/4", "1/4", "2/4"}[i]), &out, &errb), errb.String())
		assert.Contains(t, errb.String(), "100 episodes played into "+filepath.Join(sharded, "shards", []string{"0-of-4", "1-of-4", "2-of-4"}[i]))
		assert.Empty(t, out.String(), "a shard prints no table")
	}
	assert.NoFileExists(t, filepath.Join(sharded, eval.TableFile), "shards leave the aggregate to the merge")

	errb.Reset()
	require.Equal(t, cli.ExitFailed, run(context.Background(), with("-out", sharded, "-merge"), &out, &errb))
	assert.Contains(t, errb.String(), "100 of 400 episodes have no finished record (shard 3/4: 100)")
	assert.Contains(t, errb.String(), "missing shard 3/4: eval "+strings.Join(base, " ")+" -out "+sharded+" -shard 3/4\n")
	assert.Contains(t, errb.String(), "sbatch --array=3 ")
	assert.NotContains(t, errb.String(), "shard 2/4")

	t.Setenv("SLURM_ARRAY_TASK_ID", "3")
	t.Setenv("SLURM_ARRAY_TASK_COUNT", "4")
	errb.Reset()
	require.Equal(t, cli.ExitOK, run(context.Background(), with("-out", sharded), &out, &errb), errb.String())
	assert.Contains(t, errb.String(), "shard 3/4: 100 episodes played")
	errb.Reset()
	require.Equal(t, cli.ExitOK, run(context.Background(), with("-out", sharded, "-merge"), &out, &errb), errb.String())
	assert.Equal(t, want, readTable(t, sharded))

	// A plain run over the shards' directory plays nothing: it counts
	// their records.
	t.Setenv("SLURM_ARRAY_TASK_ID", "")
	errb.Reset()
	require.Equal(t, cli.ExitOK, run(context.Background(), with("-out", sharded), &out, &errb), errb.String())
	assert.Contains(t, errb.String(), "eval: 0 episodes played")
	assert.Equal(t, want, readTable(t, sharded))
}

// -emit needs the task count: eval's episodes have no natural one.
func TestEmitNeedsShards(t *testing.T) {
	var out, errb bytes.Buffer
	args := []string{"-policy", "random", "-env", "game:GuessTheNumber-v0-easy", "-out", t.TempDir(), "-emit", "k8s"}
	require.Equal(t, cli.ExitUsage, run(context.Background(), args, &out, &errb))
	assert.Contains(t, errb.String(), "eval: -emit k8s: the job has no tasks: give -shards N")
	errb.Reset()
	require.Equal(t, cli.ExitOK, run(context.Background(), append(args, "-shards", "4"), &out, &errb), errb.String())
	assert.Contains(t, out.String(), "completions: 4\n")
}
