package train

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/algo"
	"github.com/gemgo/gemgo/envs/builtin"
	"github.com/gemgo/gemgo/internal/fslock"
	"github.com/gemgo/gemgo/policy"
)

// dirFiles maps every file of dir to its bytes.
func dirFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	ents, err := os.ReadDir(dir)
	require.NoError(t, err)
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		require.NoError(t, err)
		out[e.Name()] = string(b)
	}
	return out
}

// A new run that fails before its first iteration (here: every way
// warmup.from can fail) removes the directory it made, which held only
// config.yaml; a directory it did not make keeps its files. A FIFO as
// warmup.from is refused before any read: opening one waits for a writer,
// and the run ignored Ctrl-C there.
func TestFailedStartRemovesRunDir(t *testing.T) {
	tmp := t.TempDir()
	other := filepath.Join(tmp, "other.safetensors")
	tok := policy.BuildTokenizer([]string{"guess a number", "[50]"}, 32)
	pc := policy.Config{Vocab: tok.VocabSize(), Context: 64, Layers: 1, DModel: 8, Heads: 2}
	w, err := policy.NewWeights(pc, rand.New(rand.NewPCG(1, 2)))
	require.NoError(t, err)
	require.NoError(t, policy.SaveCheckpoint(other, &policy.Checkpoint{Config: pc, Policy: w, Tokenizer: tok}))
	empty := filepath.Join(tmp, "empty.safetensors")
	require.NoError(t, os.WriteFile(empty, nil, 0o644))
	fifo := filepath.Join(tmp, "fifo")
	require.NoError(t, syscall.Mkfifo(fifo, 0o644))

	for _, c := range []struct{ name, from, want string }{
		{"model differs", other, "its model differs from the config's"},
		{"empty file", empty, "shorter than its 8-byte header length"},
		{"directory", tmp, "a directory, not a checkpoint file"},
		{"fifo", fifo, "a named pipe (FIFO), not a checkpoint file"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := tinyConfig("rebn")
			cfg.Warmup.From = c.from
			parent := t.TempDir()
			dir := filepath.Join(parent, "run")
			start := time.Now()
			_, err := Run(context.Background(), cfg, builtin.Registry(), Options{Dir: dir})
			require.Error(t, err)
			// The FIFO's failure mode is a wait forever; a refusal takes
			// milliseconds.
			assert.Less(t, time.Since(start), 10*time.Second)
			assert.Contains(t, err.Error(), "warmup.from")
			assert.Contains(t, err.Error(), c.want)
			assert.NoDirExists(t, dir, "the run's directory is gone")
			assert.DirExists(t, parent, "its parent stays")
		})
	}

	// A directory that was there before the run keeps what it holds.
	cfg := tinyConfig("rebn")
	cfg.Warmup.From = empty
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("mine"), 0o644))
	_, err = Run(context.Background(), cfg, builtin.Registry(), Options{Dir: dir})
	require.Error(t, err)
	assert.FileExists(t, filepath.Join(dir, "notes.txt"))
}

// lockProbe tries the run directory's lock while the run is under way.
type lockProbe struct {
	recordObserver
	dir string
	err error
}

func (o *lockProbe) Iteration(it int, m algo.Metrics) {
	o.recordObserver.Iteration(it, m)
	if it == 1 {
		unlock, err := fslock.Lock(o.dir)
		if err == nil {
			unlock()
		}
		o.err = err
	}
}

// A run holds its directory's lock while it runs, and a run (new or
// resumed) on a directory whose lock another process holds is refused at
// once, naming the directory, and changes nothing there. Two -resume of
// one directory at once both wrote metrics.jsonl (lines lost, lines
// interleaved) before the lock.
func TestRunDirLock(t *testing.T) {
	cfg := tinyConfig("rebn")
	cfg.Iterations = 2
	dir := filepath.Join(t.TempDir(), "run")
	o := &lockProbe{dir: dir}
	_, err := Run(context.Background(), cfg, builtin.Registry(), Options{Dir: dir, Observer: o})
	require.NoError(t, err)
	require.Error(t, o.err, "the lock is held during the run")
	assert.ErrorIs(t, o.err, fslock.ErrHeld)

	unlock, err := fslock.Lock(dir)
	require.NoError(t, err, "and released at its end")
	defer unlock()
	before := dirFiles(t, dir)
	cfg.Iterations = 3
	cfg.Optim.Cosine = false
	for _, resume := range []bool{true, false} {
		start := time.Now()
		_, err = Run(context.Background(), cfg, builtin.Registry(), Options{Dir: dir, Resume: resume})
		require.Error(t, err)
		assert.Less(t, time.Since(start), 10*time.Second, "refused at once, not after waiting for the lock")
		assert.ErrorIs(t, err, fslock.ErrHeld)
		assert.Contains(t, err.Error(), dir)
		assert.Contains(t, err.Error(), "another train process is running in it")
		assert.Equal(t, before, dirFiles(t, dir), "nothing changed")
	}
}

// A resume whose metrics end before its checkpoint (a copy of a live run
// that took metrics.jsonl before checkpoint.safetensors) is refused,
// naming the missing iterations, and changes nothing; with the rows back
// it resumes.
func TestResumeRefusesMetricsOlderThanCheckpoint(t *testing.T) {
	cfg := tinyConfig("rebn")
	cfg.Iterations = 5
	cfg.Optim.Cosine = false
	dir := filepath.Join(t.TempDir(), "run")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	o := &recordObserver{cancelAfter: 3, cancel: cancel}
	_, err := Run(ctx, cfg, builtin.Registry(), Options{Dir: dir, Observer: o})
	require.ErrorIs(t, err, ErrInterrupted)
	path := filepath.Join(dir, MetricsFile)
	full, err := os.ReadFile(path)
	require.NoError(t, err)
	lines := strings.SplitAfter(string(full), "\n") // rows 0 (the first evaluation) to 3, and ""
	require.Len(t, lines, 5)

	for _, c := range []struct {
		keep int // lines of metrics.jsonl kept
		want []string
	}{
		{2, []string{"end at iteration 1", "checkpoint is at iteration 3", "iterations 2–3 would have no row"}},
		{3, []string{"end at iteration 2", "iteration 3 would have no row"}},
		{0, []string{"hold no rows", "iterations 1–3 would have no row"}},
	} {
		require.NoError(t, os.WriteFile(path, []byte(strings.Join(lines[:c.keep], "")), 0o644))
		before := dirFiles(t, dir)
		_, err = Run(context.Background(), cfg, builtin.Registry(), Options{Dir: dir, Resume: true})
		require.Error(t, err)
		for _, w := range append(c.want, "resume "+dir, "copy metrics.jsonl again", "nothing was changed") {
			assert.Contains(t, err.Error(), w)
		}
		assert.Equal(t, before, dirFiles(t, dir), "nothing changed")
	}

	require.NoError(t, os.WriteFile(path, full, 0o644))
	res, err := Run(context.Background(), cfg, builtin.Registry(), Options{Dir: dir, Resume: true})
	require.NoError(t, err)
	assert.Equal(t, 5, res.Iterations)
}
