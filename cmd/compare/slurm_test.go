package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/internal/cli"
	"github.com/gemgo/gemgo/internal/slurmtest"
)

// arrayBound caps each wait for an array: six one-second runs take about
// 9 s here (two at a time on two cores); a stuck task waits forever.
const arrayBound = 90 * time.Second

// The sweep of TestShardsMergeToTheOneProcessSummary (two algorithms ×
// three seeds), submitted as the 6-task array that -emit slurm prints to
// a one-node Slurm cluster on localhost, merges to the one process's
// summary.json, timing aside. A second array with one task cancelled by
// scancel merges to the list of that task's run and the sbatch line that
// resubmits it; that line, run as printed, completes the same summary.
func TestSlurmArray(t *testing.T) {
	if testing.Short() {
		t.Skip("a Slurm cluster and three job arrays: about 30 s")
	}
	start := time.Now()
	phase := func(what string) { t.Logf("%s: %.1f s", what, time.Since(start).Seconds()); start = time.Now() }
	dir := t.TempDir() // removed after the cluster stops (cleanups run last first)
	c := slurmtest.Start(t)
	phase("cluster up")
	path := filepath.Join(dir, "sweep.yaml")
	require.NoError(t, os.WriteFile(path, []byte(twoArms), 0o644))
	bin := filepath.Join(dir, "compare")
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go is not on PATH: the array tasks need a built compare")
	}
	out, err := exec.Command(goBin, "build", "-o", bin, ".").CombinedOutput()
	require.NoError(t, err, "go build: %s", out)
	phase("go build")

	var stdout, stderr bytes.Buffer
	one := filepath.Join(dir, "one")
	require.Equal(t, cli.ExitOK, run(context.Background(), []string{"-config", path, "-out", one, "-parallel", "2"}, &stdout, &stderr), stderr.String())
	want := summaryWithoutTiming(t, one)
	phase("the sweep in one process")

	// emit writes the array script of a sweep into out, as a user does.
	emit := func(out string) string {
		t.Helper()
		stdout.Reset()
		require.Equal(t, cli.ExitOK, run(context.Background(), []string{"-config", path, "-out", out,
			"-emit", "slurm", "-emit-bin", bin, "-emit-cpus", "1", "-emit-mem", "200M", "-emit-time", "00:10:00"}, &stdout, &stderr), stderr.String())
		script := out + ".sbatch"
		require.NoError(t, os.WriteFile(script, stdout.Bytes(), 0o644))
		return script
	}
	merge := func(out string) int {
		stdout.Reset()
		stderr.Reset()
		return run(context.Background(), []string{"-config", path, "-out", out, "-merge"}, &stdout, &stderr)
	}
	all := map[string]string{}
	for _, i := range []string{"0", "1", "2", "3", "4", "5"} {
		all[i] = "COMPLETED"
	}

	// 1. The whole array.
	whole := filepath.Join(dir, "whole")
	script := emit(whole)
	check, err := c.Run(context.Background(), "sbatch", "--test-only", script)
	require.NoError(t, err, "sbatch --test-only takes the script") // it answers on stderr, "Job N to start at …"
	assert.Empty(t, check)
	id := c.Submit(t, script)
	c.Wait(t, id, arrayBound)
	phase("the 6-task array")
	assert.Equal(t, all, c.States(t, id))
	require.Equal(t, cli.ExitOK, merge(whole), stderr.String())
	assert.Equal(t, want, summaryWithoutTiming(t, whole))
	log, err := os.ReadFile(filepath.Join(whole, "slurm", id+"_5.log"))
	require.NoError(t, err, "each task's log is in OUT/slurm")
	assert.Contains(t, string(log), "shard 5/6: 1 of 6 runs")

	// 2. Task 4 (rebn seed 2 in plan order) cancelled before it starts:
	// the array is held while scancel takes it, so no run races it.
	killed := filepath.Join(dir, "killed")
	script = emit(killed)
	id = c.Submit(t, "--hold", script)
	_, err = c.Run(context.Background(), "scancel", id+"_4")
	require.NoError(t, err)
	queued, err := c.Run(context.Background(), "squeue", "-h", "-j", id, "-o", "%i %T")
	require.NoError(t, err)
	assert.Equal(t, id+"_[0-3,5] PENDING\n", queued, "a pending task cancelled leaves the array")
	_, err = c.Run(context.Background(), "scontrol", "release", id)
	require.NoError(t, err)
	c.Wait(t, id, arrayBound)
	phase("the array less task 4")
	delete(all, "4")
	assert.Equal(t, all, c.States(t, id))

	require.Equal(t, cli.ExitFailed, merge(killed))
	assert.Contains(t, stderr.String(), "compare: not merged: 1 runs are not finished:\n"+
		"  [rebn seed2]: not started ("+filepath.Join(killed, "rebn", "seed2")+")\n"+
		"compare: missing shard 4/6: ")
	_, line, ok := strings.Cut(stderr.String(), "compare: as a Slurm array: ")
	require.True(t, ok, stderr.String())
	line, _, _ = strings.Cut(line, " (the script that ran the shards)")
	require.Equal(t, "sbatch --array=4 SCRIPT", line)
	args := strings.Fields(strings.Replace(line, "SCRIPT", script, 1))
	id = c.Submit(t, args[1:]...)
	c.Wait(t, id, arrayBound)
	phase("task 4 resubmitted")
	assert.Equal(t, map[string]string{"4": "COMPLETED"}, c.States(t, id))
	require.Equal(t, cli.ExitOK, merge(killed), stderr.String())
	assert.Equal(t, want, summaryWithoutTiming(t, killed))
}
