package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"

	"github.com/gemgo/gemgo/internal/cli"
)

// at walks a decoded YAML document by keys (and list indexes).
func at(t *testing.T, doc any, path ...any) any {
	t.Helper()
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, ok := doc.(map[string]any)
			require.True(t, ok, "%v: not a map at %q", path, k)
			doc, ok = m[k]
			require.True(t, ok, "%v: no key %q", path, k)
		case int:
			l, ok := doc.([]any)
			require.True(t, ok, "%v: not a list at %d", path, k)
			require.Less(t, k, len(l), "%v", path)
			doc = l[k]
		}
	}
	return doc
}

// -emit k8s prints a Deployment whose pods run this command with the
// flags given (listening on every interface, ready when /health answers)
// and a Service in front of them; the fields sit where the Kubernetes API
// reads them.
func TestEmitK8s(t *testing.T) {
	var out, stderr bytes.Buffer
	code := run(context.Background(), []string{"-emit", "k8s", "-addr", "127.0.0.1:9000", "-env", "game:GuessTheNumber-v0-hard",
		"-max-sessions", "2048", "-drain", "1m", "-emit-replicas", "4", "-emit-image", "ghcr.io/x/gemgo:1", "-emit-mem", "1Gi"}, &out, &stderr)
	require.Equal(t, cli.ExitOK, code, stderr.String())
	var docs []map[string]any
	dec := yaml.NewDecoder(strings.NewReader(out.String()))
	for {
		var d map[string]any
		err := dec.Decode(&d)
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err)
		docs = append(docs, d)
	}
	require.Len(t, docs, 2)
	dep, svc := docs[0], docs[1]
	assert.Equal(t, "apps/v1", at(t, dep, "apiVersion"))
	assert.Equal(t, "Deployment", at(t, dep, "kind"))
	assert.Equal(t, "gemgo-envserver", at(t, dep, "metadata", "name"))
	assert.Equal(t, 4, at(t, dep, "spec", "replicas"))
	labels := map[string]any{"app": "gemgo-envserver"}
	assert.Equal(t, labels, at(t, dep, "spec", "selector", "matchLabels"))
	assert.Equal(t, labels, at(t, dep, "spec", "template", "metadata", "labels"))
	assert.Equal(t, 65, at(t, dep, "spec", "template", "spec", "terminationGracePeriodSeconds"), "-drain and 5 s")
	c := at(t, dep, "spec", "template", "spec", "containers", 0)
	assert.Equal(t, "ghcr.io/x/gemgo:1", at(t, c, "image"))
	assert.Equal(t, []any{"envserver", "-addr", ":9000", "-drain=1m0s", "-env=game:GuessTheNumber-v0-hard", "-max-sessions=2048"}, at(t, c, "command"))
	assert.Equal(t, 9000, at(t, c, "ports", 0, "containerPort"))
	assert.Equal(t, "ws", at(t, c, "ports", 0, "name"))
	assert.Equal(t, "/health", at(t, c, "readinessProbe", "httpGet", "path"))
	assert.Equal(t, "ws", at(t, c, "readinessProbe", "httpGet", "port"))
	assert.Equal(t, map[string]any{"cpu": "2", "memory": "1Gi"}, at(t, c, "resources", "limits"))
	assert.Equal(t, at(t, c, "resources", "limits"), at(t, c, "resources", "requests"))

	assert.Equal(t, "v1", at(t, svc, "apiVersion"))
	assert.Equal(t, "Service", at(t, svc, "kind"))
	assert.Equal(t, "gemgo-envserver", at(t, svc, "metadata", "name"))
	assert.Equal(t, labels, at(t, svc, "spec", "selector"))
	assert.Equal(t, 9000, at(t, svc, "spec", "ports", 0, "port"))
	assert.Equal(t, "ws", at(t, svc, "spec", "ports", 0, "targetPort"))
	assert.Contains(t, out.String(), "env.remote: ws://gemgo-envserver:9000")

	// The strict decode into the types that name the API's fields: no
	// field the emitter writes is missing from them.
	dec = yaml.NewDecoder(strings.NewReader(out.String()))
	dec.KnownFields(true)
	var d deployment
	require.NoError(t, dec.Decode(&d))
	var s service
	require.NoError(t, dec.Decode(&s))

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-emit", "nomad"}, `-emit "nomad": want k8s`},
		{[]string{"-emit", "k8s", "-emit-replicas", "0"}, "-emit-replicas 0"},
		{[]string{"-emit", "k8s", "-emit-name", "My_Server"}, `-emit-name "My_Server": want lower case letters`},
		{[]string{"-emit", "k8s", "-env", "game:Nope"}, "unknown env id"},
	} {
		stderr.Reset()
		assert.Equal(t, cli.ExitUsage, run(context.Background(), tc.args, io.Discard, &stderr), "%v", tc.args)
		assert.Contains(t, stderr.String(), tc.want)
	}
}
