package train

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The sizes that a run holds in memory are bounded, each refusal naming
// the key and its range: without the bounds, eval.episodes=1e12 and
// tokenizer.corpus_episodes=1e9 ended in Go's out-of-memory trace, and
// rollout.episodes=1e8 grew without bound. sample.max_new_tokens is named
// itself, not as the warm-up's prompt length that it wraps.
func TestSizeBounds(t *testing.T) {
	cases := []struct {
		set     string
		want    []string
		notWant []string
	}{
		{"eval.episodes=1e12", []string{"eval.episodes = 1000000000000", "allowed [0, 100000]"}, nil},
		{"eval.episodes=100001", []string{"eval.episodes = 100001", "allowed [0, 100000]"}, nil},
		{"tokenizer.corpus_episodes=1e9", []string{"tokenizer.corpus_episodes = 1000000000", "allowed [1, 100000]"}, nil},
		{"tokenizer.corpus_episodes=0", []string{"tokenizer.corpus_episodes = 0", "allowed [1, 100000]"}, nil},
		{"rollout.episodes=1e8", []string{"rollout.episodes = 100000000", "allowed [0, 100000]"}, nil},
		{"rollout.steps=1e8", []string{"rollout.steps = 100000000", "allowed [0, 1000000]"}, nil},
		{"sample.max_new_tokens=1e9", []string{"sample.max_new_tokens = 1000000000", "allowed [1, model.context − 2 = 126]"},
			[]string{"PromptTokens", "WarmupConfig", "-999999"}},
		{"sample.max_new_tokens=0", []string{"sample.max_new_tokens = 0", "allowed [1, model.context − 2 = 126]"},
			[]string{"PromptTokens", "must be ≥ 1"}},
	}
	for _, c := range cases {
		t.Run(c.set, func(t *testing.T) {
			sets := []string{c.set}
			if strings.HasPrefix(c.set, "rollout.steps") {
				sets = append([]string{"rollout.episodes=0"}, sets...)
			}
			_, err := Parse(nil, sets)
			require.Error(t, err)
			for _, w := range c.want {
				assert.Contains(t, err.Error(), w)
			}
			for _, w := range c.notWant {
				assert.NotContains(t, err.Error(), w)
			}
		})
	}
	// The bounds themselves are allowed.
	_, err := Parse(nil, []string{"eval.episodes=100000", "tokenizer.corpus_episodes=100000", "rollout.episodes=100000", "sample.max_new_tokens=126"})
	assert.NoError(t, err)
}

// A config or base file is read up to 1 MiB: a device or a stream that
// never ends is refused at once with a message naming the file, where the
// whole-file read ran until Go's out-of-memory trace.
func TestConfigFileSizeCap(t *testing.T) {
	dir := t.TempDir()
	child := filepath.Join(dir, "child.yaml")
	require.NoError(t, os.WriteFile(child, []byte("base: /dev/zero\niterations: 3\n"), 0o644))
	big := filepath.Join(dir, "big.yaml")
	require.NoError(t, os.WriteFile(big, []byte("iterations: 3\n"+strings.Repeat("# padding\n", 110_000)), 0o644))
	for _, c := range []struct{ path, names string }{
		{child, "/dev/zero"}, {"/dev/urandom", "/dev/urandom"}, {big, big},
	} {
		start := time.Now()
		_, err := LoadFile(c.path, nil)
		require.Error(t, err, c.path)
		assert.Contains(t, err.Error(), "config "+c.names+" is larger than 1024 KiB: not a config file")
		// The failure mode is a read until the machine's memory runs out
		// (minutes); reading 1 MiB takes milliseconds.
		assert.Less(t, time.Since(start), 5*time.Second)
	}
	// Just under the cap is a config like any other.
	ok := filepath.Join(dir, "ok.yaml")
	require.NoError(t, os.WriteFile(ok, []byte("iterations: 3\n"+strings.Repeat("# padding\n", 100_000)), 0o644))
	c, err := LoadFile(ok, nil)
	require.NoError(t, err)
	assert.Equal(t, 3, c.Iterations)
}
