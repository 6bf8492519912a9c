package train

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/builtin"
	"github.com/gemgo/gemgo/envs/envtest"
	"github.com/gemgo/gemgo/internal/fslock"
)

// noSampler is a user env without SampleAction: envtest.Toy's rules, with
// only the two methods of the contract.
type noSampler struct{ toy *envtest.Toy }

func (e *noSampler) Reset(seed uint64) (string, envs.Info, error) { return e.toy.Reset(seed) }
func (e *noSampler) Step(a string) (envs.Step, error)             { return e.toy.Step(a) }

func TestSamplerlessEnvFailsClearly(t *testing.T) {
	reg := envs.NewRegistry()
	require.NoError(t, reg.Register("user:NoSampler-v0", func(*envs.Options) (envs.Env, error) {
		return &noSampler{toy: envtest.NewToy(3)}, nil
	}))
	cfg := tinyConfig("rebn")
	cfg.Env.ID = "user:NoSampler-v0"
	cfg.Env.Options = nil
	require.Equal(t, "observations", cfg.Env.History, "the default history wraps the env, and a wrapper always has a SampleAction method")
	for _, steps := range []int{5, 0} {
		cfg.Warmup.Steps = steps
		_, err := Run(context.Background(), cfg, reg, Options{Dir: filepath.Join(t.TempDir(), "run")})
		require.Error(t, err)
		assert.ErrorContains(t, err, "user:NoSampler-v0")
		assert.ErrorContains(t, err, "implement envs.ActionSampler")
	}
}

func TestConfigFileMode(t *testing.T) {
	// Run stops after the warm-up (the context is done) with config.yaml
	// written by the run directory code. The directory is the test's (a
	// run removes one it made when it stops before its first iteration).
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	dir := t.TempDir()
	cfg := tinyConfig("rebn")
	cfg.Tokenizer.CorpusEpisodes = 2
	cfg.Warmup.Steps = 1
	_, err := Run(ctx, cfg, builtin.Registry(), Options{Dir: dir})
	require.ErrorIs(t, err, context.Canceled)
	fi, err := os.Stat(filepath.Join(dir, ConfigFile))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o644), fi.Mode().Perm())
	ents, err := os.ReadDir(dir)
	require.NoError(t, err)
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	assert.Equal(t, []string{fslock.Name, ConfigFile}, names, "no temporary file left behind")
}
