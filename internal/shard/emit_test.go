package shard

import (
	"flag"
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

func TestSlurmScript(t *testing.T) {
	got, err := emitFlags(t, "slurm", "-emit-cpus", "4", "-emit-mem", "8G", "-emit-time", "1-02:00:00").Emit(job)
	require.NoError(t, err)
	assert.Equal(t, `#!/bin/bash
#SBATCH --job-name=gemgo-compare-tiny
#SBATCH --array=0-5
#SBATCH --cpus-per-task=4
#SBATCH --mem=8G
#SBATCH --time=1-02:00:00
#SBATCH --output='runs/my sweep/slurm/%A_%a.log'
# Task i runs shard i/6 into runs/my sweep (shared storage).
# When the array is done: compare -config configs/compare_guess.yaml -out 'runs/my sweep' -merge
# The merge lists missing shards; resubmit them with: sbatch --array=LIST THIS_SCRIPT
set -euo pipefail
mkdir -p 'runs/my sweep/slurm'
export GOMAXPROCS="$SLURM_CPUS_PER_TASK"
exec compare -config configs/compare_guess.yaml -out 'runs/my sweep' -shards 6
`, got)
}

// The manifest decodes strictly (no unknown field) into the batch/v1 Job
// fields it sets. k8s.io/api is not a dependency of gemgo: JobManifest
// names those fields as the API does, and this test checks the values.
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
