package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/train"
)

const tiny = `name: tiny
iterations: 2
model: {layers: 1, d_model: 16, heads: 2, context: 64}
tokenizer: {corpus_episodes: 20}
warmup: {steps: 3, batch_size: 8}
env: {num_envs: 8}
rollout: {episodes: 8}
algo: {minibatch_size: 16}
eval: {every: 1, episodes: 8}
`

func writeConfig(t *testing.T, text string) string {
	p := filepath.Join(t.TempDir(), "c.yaml")
	require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	return p
}

func runCmd(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(context.Background(), args, &out, &errb, false)
	return code, out.String(), errb.String()
}

func TestTrainEndToEnd(t *testing.T) {
	out := t.TempDir()
	code, stdout, stderr := runCmd("-config", writeConfig(t, tiny), "-out", out)
	require.Equal(t, 0, code, stderr)
	dir := filepath.Join(out, "tiny")
	for _, f := range []string{"config.yaml", "metrics.jsonl", "metrics.csv", "report.html", "checkpoint.safetensors", "final.safetensors"} {
		assert.FileExists(t, filepath.Join(dir, f))
	}
	assert.Contains(t, stdout, "iter=2/2")
	assert.Contains(t, stdout, "eval iter=2")
	assert.Contains(t, stdout, "done in")
	// A second run with the same name gets a fresh directory.
	code, stdout, stderr = runCmd("-config", writeConfig(t, tiny), "-out", out)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, filepath.Join(out, "tiny-2"))
	// Resuming a finished run has nothing left to do but succeeds.
	code, _, stderr = runCmd("-resume", dir)
	assert.Equal(t, 0, code, stderr)
	// Resuming with more iterations continues the run.
	code, stdout, stderr = runCmd("-resume", dir, "-set", "iterations=3")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "iter=3/3")
	assert.NotContains(t, stdout, "iter=1/3")
}

func TestTrainErrors(t *testing.T) {
	blocker := filepath.Join(t.TempDir(), "file")
	require.NoError(t, os.WriteFile(blocker, nil, 0o644))
	corrupt := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(corrupt, "config.yaml"), []byte(tiny), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(corrupt, "checkpoint.safetensors"), []byte("\x10\x00\x00\x00\x00\x00\x00\x00{garbage}"), 0o644))
	cases := []struct {
		name string
		args []string
		code int
		want []string
	}{
		{"no config", nil, 2, []string{"no config"}},
		{"missing file", []string{"-config", "/nonexistent/x.yaml"}, 2, []string{"no such file"}},
		{"bad key", []string{"-config", writeConfig(t, "itrations: 3\n")}, 2, []string{`unknown key "itrations"`, "valid keys"}},
		{"bad set", []string{"-config", writeConfig(t, tiny), "-set", "algo.gama=1"}, 2, []string{`unknown key "gama"`, "section algo"}},
		{"unknown env", []string{"-config", writeConfig(t, tiny+"\n"), "-set", "env.id=game:GuessTheNumbr-v0-easy", "-out", t.TempDir()}, 1, []string{"unknown env id", "GuessTheNumber-v0-easy"}},
		{"unwritable out", []string{"-config", writeConfig(t, tiny), "-out", blocker}, 1, []string{"-out"}},
		{"corrupt checkpoint", []string{"-resume", corrupt}, 1, []string{"checkpoint.safetensors"}},
		{"both", []string{"-config", "x", "-resume", "y"}, 2, []string{"not both"}},
		{"bad seed", []string{"-config", "x", "-seed", "-1"}, 2, []string{"-seed"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, _, stderr := runCmd(c.args...)
			assert.Equal(t, c.code, code, stderr)
			for _, w := range c.want {
				assert.Contains(t, stderr, w)
			}
			assert.Equal(t, 1, strings.Count(strings.TrimSpace(stderr), "\n")+1, "one clear message: %q", stderr)
		})
	}
	data, err := os.ReadFile(filepath.Join(corrupt, "checkpoint.safetensors"))
	require.NoError(t, err)
	assert.Equal(t, "\x10\x00\x00\x00\x00\x00\x00\x00{garbage}", string(data), "a failed resume leaves the checkpoint as it was")
}

func TestTrainHelpAndPrintConfig(t *testing.T) {
	code, stdout, stderr := runCmd("-h")
	assert.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "-print-config")
	assert.Contains(t, stdout, "usage: train")

	// -print-config prints the resolved config (file, -set, -seed) and
	// starts nothing.
	out := t.TempDir()
	code, stdout, stderr = runCmd("-config", writeConfig(t, tiny), "-set", "algo.gamma=0.5", "-seed", "7", "-print-config", "-out", out)
	require.Equal(t, 0, code, stderr)
	printed, err := train.Parse([]byte(stdout), nil)
	require.NoError(t, err, stdout)
	want, err := train.LoadFile(writeConfig(t, tiny), []string{"algo.gamma=0.5", "seed=7"})
	require.NoError(t, err)
	assert.Equal(t, want, printed)
	assert.Contains(t, stdout, "beta1: 0.9", "the lower packages' settings are shown too")
	entries, err := os.ReadDir(out)
	require.NoError(t, err)
	assert.Empty(t, entries, "no run directory")

	// -seed is a whole number.
	code, _, stderr = runCmd("-config", writeConfig(t, tiny), "-seed", "x")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "-seed")
	assert.Equal(t, 1, strings.Count(strings.TrimSpace(stderr), "\n")+1, "one line: %q", stderr)
}

// An interrupt stops the run with exit status 130 (128 + SIGINT).
func TestTrainInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errb bytes.Buffer
	code := run(ctx, []string{"-config", writeConfig(t, tiny), "-out", t.TempDir()}, &out, &errb, false)
	assert.Equal(t, 130, code, errb.String())
}
