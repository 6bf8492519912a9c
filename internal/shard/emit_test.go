package shard

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"
)

func emitFlags(t *testing.T, kind string, args ...string) EmitFlags {
	t.Helper()
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	f := AddEmitFlags(fs)
	require.NoError(t, fs.Parse(append([]string{"-emit", kind}, args...)))
	return f
}

var job = Job{Name: "gemgo-compare-tiny", Command: []string{"compare", "-config", "configs/compare_guess.yaml", "-out", "runs/my sweep"}, Count: 6, Out: "runs/my sweep"}

// The script runs -emit-bin's file in the emit's directory, and -emit
// made the log directory, which Slurm opens before the script runs.
func TestSlurmScript(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "compare")
	require.NoError(t, os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755))
	j := job
	j.Dir = dir
	got, err := emitFlags(t, "slurm", "-emit-cpus", "4", "-emit-mem", "8G", "-emit-time", "1-02:00:00", "-emit-bin", bin).Emit(j)
	require.NoError(t, err)
	assert.Equal(t, `#!/bin/bash
#SBATCH --job-name=gemgo-compare-tiny
#SBATCH --array=0-5
#SBATCH --cpus-per-task=4
#SBATCH --mem=8G
#SBATCH --time=1-02:00:00
#SBATCH --chdir=`+dir+`
#SBATCH --output='runs/my sweep/slurm/%A_%a.log'
# Task i runs shard i/6 into runs/my sweep (shared storage).
# The log directory must exist when sbatch runs (-emit made it).
# When the array is done: `+bin+` -config configs/compare_guess.yaml -out 'runs/my sweep' -merge
# The merge lists missing shards; resubmit them with: sbatch --array=LIST THIS_SCRIPT
set -euo pipefail
export GOMAXPROCS="$SLURM_CPUS_PER_TASK"
exec `+bin+` -config configs/compare_guess.yaml -out 'runs/my sweep' -shards 6
`, got)
	assert.DirExists(t, filepath.Join(dir, "runs", "my sweep", "slurm"))

	// Under go test (as under go run) this program's file is temporary:
	// the tasks look the name up on PATH, and the script says so.
	j.Dir = t.TempDir()
	got, err = emitFlags(t, "slurm").Emit(j)
	require.NoError(t, err)
	assert.Contains(t, got, "\n# compare must be gemgo's on the tasks' PATH (or emit with -emit-bin FILE).\n")
	assert.True(t, strings.HasSuffix(got, "\nexec compare -config configs/compare_guess.yaml -out 'runs/my sweep' -shards 6\n"), got)

	_, err = emitFlags(t, "slurm", "-emit-bin", filepath.Join(dir, "nothing")).Emit(j)
	assert.ErrorContains(t, err, "not an executable file: build one with go build -o bin/ ./cmd/compare")
}

// The manifest decodes strictly (no unknown field) into the batch/v1 Job
// fields it sets, as JobManifest names them; TestK8sJobDecodesIntoTheAPITypes
// decodes it into k8s.io/api's own types.
func TestK8sJob(t *testing.T) {
	got, err := emitFlags(t, "k8s", "-emit-cpus", "2", "-emit-mem", "4G", "-emit-time", "02:30:00", "-emit-image", "ghcr.io/x/gemgo:1").Emit(job)
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(got, "# Pod i runs shard i/6 into runs/my sweep on the claim gemgo-runs.\n# When the Job is complete: compare -config configs/compare_guess.yaml -out 'runs/my sweep' -merge\n"), got)
	dec := yaml.NewDecoder(strings.NewReader(got))
	dec.KnownFields(true)
	var m JobManifest
	require.NoError(t, dec.Decode(&m))
	assert.Equal(t, "batch/v1", m.APIVersion)
	assert.Equal(t, "Job", m.Kind)
	assert.Equal(t, "Indexed", m.Spec.CompletionMode)
	assert.Equal(t, 6, m.Spec.Completions)
	assert.Equal(t, 6, m.Spec.Parallelism)
	assert.Equal(t, 9000, m.Spec.ActiveDeadlineSeconds)
	assert.Equal(t, "Never", m.Spec.Template.Spec.RestartPolicy)
	require.Len(t, m.Spec.Template.Spec.Containers, 1)
	c := m.Spec.Template.Spec.Containers[0]
	assert.Equal(t, "ghcr.io/x/gemgo:1", c.Image)
	assert.Equal(t, []string{"compare", "-config", "configs/compare_guess.yaml", "-out", "runs/my sweep", "-shards", "6"}, c.Command)
	assert.Equal(t, map[string]string{"cpu": "2", "memory": "4Gi"}, c.Resources.Limits)
	assert.Equal(t, c.Resources.Limits, c.Resources.Requests)
	assert.Equal(t, []VolumeMount{{Name: "runs", MountPath: "/gemgo/runs/my sweep"}}, c.VolumeMounts)
	assert.Equal(t, "gemgo-runs", m.Spec.Template.Spec.Volumes[0].PersistentVolumeClaim.ClaimName)

	_, err = emitFlags(t, "nomad").Emit(job)
	assert.ErrorContains(t, err, `-emit "nomad": want slurm or k8s`)
	_, err = emitFlags(t, "slurm").Emit(Job{Name: "x"})
	assert.ErrorContains(t, err, "give -shards N")
}
