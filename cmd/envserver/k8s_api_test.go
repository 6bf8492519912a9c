package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/intstr"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/gemgo/gemgo/internal/cli"
)

// The Deployment and Service of -emit k8s decode strictly (an unknown or
// misspelt field is an error, as kubectl apply --validate=strict makes it)
// into the upstream API types of k8s.io/api, with the values given.
func TestK8sManifestsDecodeIntoTheAPITypes(t *testing.T) {
	var out, stderr bytes.Buffer
	code := run(context.Background(), []string{"-emit", "k8s", "-addr", "127.0.0.1:9000", "-env", "game:GuessTheNumber-v0-hard",
		"-drain", "1m", "-emit-replicas", "4", "-emit-image", "ghcr.io/x/gemgo:1", "-emit-mem", "1Gi"}, &out, &stderr)
	require.Equal(t, cli.ExitOK, code, stderr.String())
	docs := strings.Split(out.String(), "\n---\n")
	require.Len(t, docs, 2, out.String())

	var dep appsv1.Deployment
	require.NoError(t, sigsyaml.UnmarshalStrict([]byte(docs[0]), &dep), docs[0])
	assert.Equal(t, "Deployment", dep.Kind)
	require.NotNil(t, dep.Spec.Replicas)
	assert.Equal(t, int32(4), *dep.Spec.Replicas)
	require.NotNil(t, dep.Spec.Template.Spec.TerminationGracePeriodSeconds)
	assert.Equal(t, int64(65), *dep.Spec.Template.Spec.TerminationGracePeriodSeconds)
	require.Len(t, dep.Spec.Template.Spec.Containers, 1)
	c := dep.Spec.Template.Spec.Containers[0]
	assert.Equal(t, []corev1.ContainerPort{{Name: "ws", ContainerPort: 9000}}, c.Ports)
	require.NotNil(t, c.ReadinessProbe)
	require.NotNil(t, c.ReadinessProbe.HTTPGet)
	assert.Equal(t, "/health", c.ReadinessProbe.HTTPGet.Path)
	assert.Equal(t, intstr.FromString("ws"), c.ReadinessProbe.HTTPGet.Port)
	for _, rl := range []corev1.ResourceList{c.Resources.Requests, c.Resources.Limits} {
		assert.Zero(t, rl.Memory().Cmp(resource.MustParse("1Gi")), "memory %s", rl.Memory())
	}

	var svc corev1.Service
	require.NoError(t, sigsyaml.UnmarshalStrict([]byte(docs[1]), &svc), docs[1])
	assert.Equal(t, "Service", svc.Kind)
	assert.Equal(t, dep.Spec.Selector.MatchLabels, svc.Spec.Selector)
	require.Len(t, svc.Spec.Ports, 1)
	assert.Equal(t, int32(9000), svc.Spec.Ports[0].Port)
	assert.Equal(t, intstr.FromString("ws"), svc.Spec.Ports[0].TargetPort)

	// The check can fail: a misspelt field is refused by name.
	bad := strings.Replace(docs[0], "readinessProbe:", "readinessProbes:", 1)
	require.NotEqual(t, docs[0], bad)
	assert.ErrorContains(t, sigsyaml.UnmarshalStrict([]byte(bad), &appsv1.Deployment{}), `unknown field "readinessProbes"`)
}
