package eval_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/envs/builtin"
	"github.com/gemgo/gemgo/eval"
	"github.com/gemgo/gemgo/internal/fslock"
	"github.com/gemgo/gemgo/internal/shard"
)

// A shard has its own lock and file: it runs beside another shard, not
// beside itself; a torn shard file resumes where it stopped; and records
// of other settings in a shard are refused by name.
func TestShardLocksResumesAndChecks(t *testing.T) {
	dir := t.TempDir()
	cfg := baseConfig(10, "random", "oracle") // 20 episodes, 10 a shard
	opts := func(s shard.Shard) eval.Options {
		return eval.Options{Dir: dir, Registry: builtin.Registry(), Shard: s}
	}
	s0, s1 := shard.Shard{Index: 0, Count: 2}, shard.Shard{Index: 1, Count: 2}
	require.NoError(t, os.MkdirAll(eval.ShardDir(dir, s0), 0o755))
	release, err := fslock.Lock(eval.ShardDir(dir, s0))
	require.NoError(t, err)
	_, err = eval.Run(context.Background(), cfg, open(t, cfg), opts(s0))
	if !errors.Is(err, fslock.ErrHeld) {
		release()
		t.Skipf("no flock on this platform: %v", err)
	}
	md, err := eval.Run(context.Background(), cfg, open(t, cfg), opts(s1))
	require.NoError(t, err, "shard 1 runs while shard 0 is held")
	assert.Equal(t, 10, md.Played)
	release()

	md, err = eval.Run(context.Background(), cfg, open(t, cfg), opts(s0))
	require.NoError(t, err)
	require.Equal(t, 10, md.Played)
	// keep 3 records and half a line: the shard resumes with the other 7
	file := filepath.Join(eval.ShardDir(dir, s0), eval.ResultsFile)
	b, err := os.ReadFile(file)
	require.NoError(t, err)
	lines := strings.SplitAfter(string(b), "\n")
	require.NoError(t, os.WriteFile(file, []byte(strings.Join(lines[:3], "")+lines[3][:20]), 0o644))
	md, err = eval.Run(context.Background(), cfg, open(t, cfg), opts(s0))
	require.NoError(t, err)
	assert.Equal(t, 7, md.Played)

	md, err = eval.Run(context.Background(), cfg, open(t, cfg), eval.Options{Dir: dir, Registry: builtin.Registry(), Merge: true})
	require.NoError(t, err)
	assert.True(t, md.Complete)
	assert.Equal(t, 0, md.Played)

	other := cfg
	other.EnvOptions = map[string]any{"style": "gem"}
	_, err = eval.Run(context.Background(), other, open(t, other), eval.Options{Dir: dir, Registry: builtin.Registry(), Merge: true})
	require.ErrorContains(t, err, filepath.Join(dir, "shards", "0-of-2", "results.jsonl")+" line 1 was played with other settings")
	// a shard of other settings in the directory is named
	mixed := t.TempDir()
	_, err = eval.Run(context.Background(), other, open(t, other), eval.Options{Dir: mixed, Registry: builtin.Registry(), Shard: s1})
	require.NoError(t, err)
	_, err = eval.Run(context.Background(), cfg, open(t, cfg), eval.Options{Dir: mixed, Registry: builtin.Registry(), Merge: true})
	require.ErrorContains(t, err, filepath.Join(mixed, "shards", "1-of-2", "results.jsonl")+" line 1 was played with other settings")
}
