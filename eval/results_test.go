package eval_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/chat"
	"github.com/gemgo/gemgo/chat/chattest"
	"github.com/gemgo/gemgo/envs/builtin"
	"github.com/gemgo/gemgo/eval"
	"github.com/gemgo/gemgo/policy"
)

// A checkpoint replaced under the same path (here a run directory's
// final.safetensors) is evaluated anew: its records are its own, equal to
// those of a fresh directory, and the old checkpoint's stay in the file,
// left out. A rerun with no change plays nothing.
func TestReplacedCheckpointIsPlayedAnew(t *testing.T) {
	trained := chattest.Checkpoint(t, chat.HistoryObservations)
	untrained := *trained
	w, err := policy.NewWeights(trained.Policy.Config, rand.New(rand.NewPCG(3, 4)))
	require.NoError(t, err)
	untrained.Policy = w // other weights, the same tokenizer and run config

	runDir := t.TempDir()
	ckPath := filepath.Join(runDir, "final.safetensors")
	save := func(ck *policy.Checkpoint) string {
		require.NoError(t, policy.SaveCheckpoint(ckPath, ck))
		b, err := os.ReadFile(ckPath)
		require.NoError(t, err)
		sum := sha256.Sum256(b)
		return "sha256:" + hex.EncodeToString(sum[:])
	}
	cfg := baseConfig(12, runDir)
	evaluate := func(out string) eval.Metadata {
		md, err := eval.Run(context.Background(), cfg, open(t, cfg), eval.Options{Dir: out, Registry: builtin.Registry()})
		require.NoError(t, err)
		require.True(t, md.Complete)
		return md
	}
	bySeed := func(recs []eval.Record, id string) map[uint64]eval.Record {
		m := map[uint64]eval.Record{}
		for _, r := range recs {
			if r.PolicyID == id {
				m[r.Seed] = r
			}
		}
		return m
	}

	out := t.TempDir()
	idA := save(trained)
	require.Equal(t, 12, evaluate(out).Played)

	idB := save(&untrained)
	require.NotEqual(t, idA, idB)
	swapped := evaluate(out)
	require.Equal(t, 12, swapped.Played, "the new content is played, not the old records reused")
	require.Equal(t, idB, swapped.Policies[0].ID)
	fresh := t.TempDir()
	alone := evaluate(fresh)

	recs := records(t, out)
	require.Len(t, recs, 24, "the old checkpoint's records are kept")
	a, b, want := bySeed(recs, idA), bySeed(recs, idB), bySeed(records(t, fresh), idB)
	require.Len(t, a, 12)
	require.Len(t, b, 12)
	differ := 0
	for seed, r := range b {
		require.Equal(t, want[seed].Messages, r.Messages, "seed %d: the swapped run plays as a fresh directory does", seed)
		require.Equal(t, want[seed].Rewards, r.Rewards, "seed %d", seed)
		if fmt.Sprint(a[seed].Messages) != fmt.Sprint(r.Messages) {
			differ++
		}
	}
	require.Positive(t, differ, "the two checkpoints must play differently for the test to mean something")
	require.Equal(t, alone.Aggregates[0].Success, swapped.Aggregates[0].Success, "the table is the new checkpoint's")
	require.Equal(t, alone.Aggregates[0].Return, swapped.Aggregates[0].Return)

	again := evaluate(out)
	require.Zero(t, again.Played, "no change: nothing to play")
	require.Equal(t, swapped.Aggregates[0].Return, again.Aggregates[0].Return)

	// the old content back: its records count again
	save(trained)
	require.Zero(t, evaluate(out).Played)
}

// Two runs into one directory: the second (this process) is refused at
// once, naming the directory and the first's process id, and the first
// (another process) finishes with every episode, each once, in a file
// that parses.
func TestSecondRunIsRefused(t *testing.T) {
	if os.Getenv("GEMGO_EVAL_KILL_DIR") != "" {
		t.Skip("helper")
	}
	dir := t.TempDir()
	cmd := helperCommand(t, dir)
	var helperOut strings.Builder
	cmd.Stdout, cmd.Stderr = &helperOut, &helperOut
	require.NoError(t, cmd.Start())
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	path := filepath.Join(dir, eval.ResultsFile)
	deadline := time.Now().Add(60 * time.Second)
	for {
		recs, _ := eval.ReadResults(path)
		if len(recs) >= 30 {
			break
		}
		require.True(t, time.Now().Before(deadline), "the helper wrote no results")
		time.Sleep(20 * time.Millisecond)
	}

	md, err := eval.Run(context.Background(), killConfig(), []eval.Named{{Name: "slow", Policy: slowRandom{0}}}, eval.Options{Dir: dir, Registry: builtin.Registry()})
	recs, rerr := eval.ReadResults(path)
	require.NoError(t, rerr)
	// Waiting for the lock would return only after the helper's last
	// record; it still had hundreds of episodes of 5 ms turns to play.
	require.Less(t, len(recs), killEpisodes, "the second run is refused without waiting")
	require.EqualError(t, err, fmt.Sprintf("%s is locked by another process (pid %d): another eval is running in this directory; wait for it to finish, or choose another -out directory", dir, cmd.Process.Pid))
	require.Empty(t, md.Hash)

	select {
	case err := <-done:
		require.NoError(t, err, "the first run ends well: %s", helperOut.String())
	case <-time.After(5 * time.Minute): // about 3 s alone; a limit far past it on a busy machine
		_ = cmd.Process.Kill()
		t.Fatal("the helper did not finish")
	}
	recs = records(t, dir)
	seen := map[eval.Key]bool{}
	for _, r := range recs {
		require.Empty(t, r.Error)
		require.False(t, seen[r.Key], "episode %v twice", r.Key)
		seen[r.Key] = true
	}
	require.Len(t, recs, killEpisodes, "every episode, each once")
	var meta eval.Metadata
	b, err := os.ReadFile(filepath.Join(dir, eval.MetadataFile))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &meta))
	require.True(t, meta.Complete)
	require.Equal(t, killEpisodes, meta.Played)
}

// A torn last line is cut before the file is reopened for appending: the
// rerun plays that episode, and its record starts a line of its own.
func TestTornLastLineIsCut(t *testing.T) {
	dir := t.TempDir()
	cfg := baseConfig(4, "random")
	_, err := eval.Run(context.Background(), cfg, open(t, cfg), eval.Options{Dir: dir, Registry: builtin.Registry()})
	require.NoError(t, err)
	path := filepath.Join(dir, eval.ResultsFile)
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	lines := strings.SplitAfter(string(b), "\n")
	last := lines[3]
	require.NoError(t, os.WriteFile(path, []byte(strings.Join(lines[:3], "")+last[:len(last)/2]), 0o644))

	md, err := eval.Run(context.Background(), cfg, open(t, cfg), eval.Options{Dir: dir, Registry: builtin.Registry()})
	require.NoError(t, err)
	require.Equal(t, 1, md.Played)
	require.True(t, md.Complete)
	b, err = os.ReadFile(path)
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(string(b), strings.Join(lines[:3], "")), "the whole lines are kept")
	require.Equal(t, 4, strings.Count(string(b), "\n"))
	recs := records(t, dir)
	require.Len(t, recs, 4, "the new record is a line of its own, not glued to the torn half")
	var want eval.Record
	require.NoError(t, json.Unmarshal([]byte(last), &want))
	recs[3].LatencyS, want.LatencyS = 0, 0
	require.Equal(t, want, recs[3], "random plays a seed alike")
}

// A record that repeats a finished episode is counted once when it is
// the same, and refused when its outcome differs: no resumed run writes
// one, and which of the two to count is not for eval to guess.
func TestDuplicateRecords(t *testing.T) {
	dir := t.TempDir()
	cfg := baseConfig(3, "random")
	first, err := eval.Run(context.Background(), cfg, open(t, cfg), eval.Options{Dir: dir, Registry: builtin.Registry()})
	require.NoError(t, err)
	path := filepath.Join(dir, eval.ResultsFile)
	recs := records(t, dir)
	add := func(r eval.Record) {
		b, err := json.Marshal(r)
		require.NoError(t, err)
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
		require.NoError(t, err)
		_, err = f.Write(append(b, '\n'))
		require.NoError(t, err)
		require.NoError(t, f.Close())
	}

	add(recs[0]) // line 4
	md, err := eval.Run(context.Background(), cfg, open(t, cfg), eval.Options{Dir: dir, Registry: builtin.Registry()})
	require.NoError(t, err)
	require.Zero(t, md.Played)
	require.Equal(t, first.Aggregates[0].Episodes, md.Aggregates[0].Episodes)
	require.Equal(t, first.Aggregates[0].Return, md.Aggregates[0].Return)

	other := recs[0]
	other.Success, other.Return = !other.Success, other.Return+1
	add(other) // line 5
	_, err = eval.Run(context.Background(), cfg, open(t, cfg), eval.Options{Dir: dir, Registry: builtin.Registry()})
	require.EqualError(t, err, fmt.Sprintf("%s lines 1 and 5 are the same episode (policy random, env %s, seed %d, sample 0) with different outcomes: the file was edited or written by two runs at once; move it away to start over", path, chattest.EnvID, other.Seed))
}
