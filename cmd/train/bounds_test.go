package main

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/gemgo/gemgo/internal/cli"
)

// Inputs that made train read or allocate without bound (Go's
// out-of-memory trace after minutes) are refused at once with a message
// naming the key or file, and leave no run directory.
func TestTrainRefusesUnboundedInputs(t *testing.T) {
	cases := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"base is /dev/zero", []string{"-config", writeConfig(t, "base: /dev/zero\n")}, cli.ExitUsage, "config /dev/zero is larger than 1024 KiB: not a config file"},
		{"config is /dev/urandom", []string{"-config", "/dev/urandom"}, cli.ExitUsage, "config /dev/urandom is larger than 1024 KiB"},
		{"warmup.from is /dev/zero", []string{"-config", writeConfig(t, tiny), "-set", "warmup.from=/dev/zero"}, cli.ExitFailed, "load checkpoint /dev/zero: a device, not a checkpoint file"},
		{"eval.episodes", []string{"-config", writeConfig(t, tiny), "-set", "eval.episodes=1e12"}, cli.ExitUsage, "eval.episodes = 1000000000000: allowed [0, 100000]"},
		{"tokenizer.corpus_episodes", []string{"-config", writeConfig(t, tiny), "-set", "tokenizer.corpus_episodes=1e9"}, cli.ExitUsage, "tokenizer.corpus_episodes = 1000000000: allowed [1, 100000]"},
		{"rollout.episodes", []string{"-config", writeConfig(t, tiny), "-set", "rollout.episodes=1e8"}, cli.ExitUsage, "rollout.episodes = 100000000: allowed [0, 100000]"},
		{"sample.max_new_tokens", []string{"-config", writeConfig(t, tiny), "-set", "sample.max_new_tokens=1e9"}, cli.ExitUsage, "sample.max_new_tokens = 1000000000: allowed [1, model.context − 2 = 62]"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := t.TempDir()
			start := time.Now()
			code, _, stderr := runCmd(append(c.args, "-out", out)...)
			assert.Equal(t, c.code, code, stderr)
			assert.Contains(t, stderr, c.want)
			assert.NotContains(t, stderr, "PromptTokens")
			// The failure mode is minutes of reading or allocating until
			// the memory runs out; a refusal takes milliseconds.
			assert.Less(t, time.Since(start), 10*time.Second)
			assert.NoDirExists(t, filepath.Join(out, "tiny"))
		})
	}
}
