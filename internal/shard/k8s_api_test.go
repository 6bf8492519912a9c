package shard

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	sigsyaml "sigs.k8s.io/yaml"
)

// The Indexed Job decodes strictly (an unknown or misspelt field is an
// error, as kubectl apply --validate=strict makes it) into the upstream
// API types, k8s.io/api's batch/v1 Job, with the values -emit was given.
func TestK8sJobDecodesIntoTheAPITypes(t *testing.T) {
	got, err := emitFlags(t, "k8s", "-emit-cpus", "2", "-emit-mem", "4G", "-emit-time", "02:30:00", "-emit-image", "ghcr.io/x/gemgo:1").Emit(job)
	require.NoError(t, err)
	var j batchv1.Job
	require.NoError(t, sigsyaml.UnmarshalStrict([]byte(got), &j), got)

	assert.Equal(t, "batch/v1", j.APIVersion)
	assert.Equal(t, "Job", j.Kind)
	assert.Equal(t, "gemgo-compare-tiny", j.Name)
	require.NotNil(t, j.Spec.CompletionMode)
	assert.Equal(t, batchv1.IndexedCompletion, *j.Spec.CompletionMode)
	require.NotNil(t, j.Spec.Completions)
	require.NotNil(t, j.Spec.Parallelism)
	require.NotNil(t, j.Spec.BackoffLimitPerIndex)
	require.NotNil(t, j.Spec.ActiveDeadlineSeconds)
	assert.Equal(t, []int64{6, 6, 2, 9000}, []int64{int64(*j.Spec.Completions), int64(*j.Spec.Parallelism), int64(*j.Spec.BackoffLimitPerIndex), *j.Spec.ActiveDeadlineSeconds})

	pod := j.Spec.Template.Spec
	assert.Equal(t, corev1.RestartPolicyNever, pod.RestartPolicy)
	require.Len(t, pod.Containers, 1)
	c := pod.Containers[0]
	assert.Equal(t, "ghcr.io/x/gemgo:1", c.Image)
	assert.Equal(t, "/gemgo", c.WorkingDir)
	assert.Equal(t, []string{"compare", "-config", "configs/compare_guess.yaml", "-out", "runs/my sweep", "-shards", "6"}, c.Command)
	assert.Equal(t, []corev1.EnvVar{{Name: "GOMAXPROCS", Value: "2"}}, c.Env)
	for _, rl := range []corev1.ResourceList{c.Resources.Requests, c.Resources.Limits} {
		assert.Zero(t, rl.Cpu().Cmp(resource.MustParse("2")), "cpu %s", rl.Cpu())
		assert.Zero(t, rl.Memory().Cmp(resource.MustParse("4Gi")), "memory %s", rl.Memory())
		assert.Equal(t, int64(4<<30), rl.Memory().Value())
	}
	assert.Equal(t, []corev1.VolumeMount{{Name: "runs", MountPath: "/gemgo/runs/my sweep"}}, c.VolumeMounts)
	require.Len(t, pod.Volumes, 1)
	require.NotNil(t, pod.Volumes[0].PersistentVolumeClaim)
	assert.Equal(t, "runs", pod.Volumes[0].Name)
	assert.Equal(t, "gemgo-runs", pod.Volumes[0].PersistentVolumeClaim.ClaimName)

	// The check can fail: a misspelt field is refused by name.
	bad := strings.Replace(got, "backoffLimitPerIndex:", "backoffLimitPerIndx:", 1)
	require.NotEqual(t, got, bad)
	assert.ErrorContains(t, sigsyaml.UnmarshalStrict([]byte(bad), &batchv1.Job{}), `unknown field "backoffLimitPerIndx"`)
}
