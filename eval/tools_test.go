package eval_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/chat"
	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/builtin"
	"github.com/gemgo/gemgo/eval"
	"github.com/gemgo/gemgo/sandbox"
	"github.com/gemgo/gemgo/tools"
)

// toolConfig is random on math:Products-v0 with the python tool.
func toolConfig(episodes int, specs ...tools.Spec) eval.Config {
	cfg := eval.DefaultConfig()
	cfg.Policies, cfg.Envs, cfg.Episodes = []string{"random"}, []string{"math:Products-v0"}, episodes
	cfg.EnvOptions = map[string]any{"style": "brief"}
	cfg.Tools = specs
	cfg.Concurrency, cfg.Resamples = 4, 100
	return cfg
}

// A config without tools hashes as it did before Config had Tools: the
// values were computed by the code of that time (commit 121897f), so a
// results directory written then can still be resumed.
func TestHashWithoutToolsIsUnchanged(t *testing.T) {
	c := eval.DefaultConfig()
	assert.Equal(t, "00a442ea7b577379", c.EpisodeHash())
	assert.Equal(t, "51377b6875c56a5f", c.Hash())
	c.Policies, c.Envs = []string{"random"}, []string{"math:Products-v0"}
	c.EnvOptions = map[string]any{"style": "brief"}
	c.Temperature, c.TopP, c.MaxTokens, c.Stop, c.System = 0.7, 0.9, 256, []string{"\n\n"}, "be brief"
	assert.Equal(t, "beb370e39dc726fd", c.EpisodeHash())
	assert.Equal(t, "963ca5b26fb2e338", c.Hash())
	c.Tools = []tools.Spec{}
	assert.Equal(t, "beb370e39dc726fd", c.EpisodeHash(), "an empty list is no tools")

	// tools change how episodes play, so they change the hash; a default
	// given explicitly does not
	c.Tools = []tools.Spec{{Name: "python"}}
	withPython := c.EpisodeHash()
	assert.NotEqual(t, "beb370e39dc726fd", withPython)
	c.Tools = []tools.Spec{{Name: "python", MaxUses: 5}}
	assert.Equal(t, withPython, c.EpisodeHash())
	c.Tools = []tools.Spec{{Name: "python", MaxUses: 2}}
	assert.NotEqual(t, withPython, c.EpisodeHash())
}

// random with the python tool: its calls reach the tool, whose answers
// are observations of the episode, and the first observation carries the
// tool's instructions after the task.
func TestEvalWithPythonTool(t *testing.T) {
	if _, _, err := sandbox.PythonFor(sandbox.DefaultPython, sandbox.Detect()); err != nil {
		t.Skipf("the python tool needs a Python 3 the sandbox can run: %v", err)
	}
	spec := tools.Spec{Name: "python", MaxUses: 2}
	cfg := toolConfig(12, spec)
	dir := t.TempDir()
	md, err := eval.Run(context.Background(), cfg, open(t, cfg), eval.Options{Dir: dir, Registry: builtin.Registry()})
	require.NoError(t, err)
	require.True(t, md.Complete)
	require.Equal(t, 12, md.Played)

	tool, err := tools.New(spec)
	require.NoError(t, err)
	defer tool.(interface{ Close() error }).Close()
	instructions := tool.Instructions()
	inner, err := builtin.Registry().Make("math:Products-v0", envs.FromMap(cfg.EnvOptions)...)
	require.NoError(t, err)

	withCalls := 0
	for _, r := range records(t, dir) {
		require.Empty(t, r.Error)
		require.Equal(t, cfg.EpisodeHash(), r.Settings)
		require.NotEmpty(t, r.Messages)
		first := r.Messages[0]
		require.Equal(t, chat.RoleUser, first.Role)
		task, _, err := inner.Reset(r.Seed)
		require.NoError(t, err)
		assert.True(t, strings.HasPrefix(first.Content, task), "seed %d: the task comes first", r.Seed)
		assert.Contains(t, first.Content, instructions, "seed %d", r.Seed)
		calls := 0
		for _, m := range r.Messages[1:] {
			if m.Role == chat.RoleUser && strings.HasPrefix(m.Content, "Code execution result:") {
				calls++
			}
		}
		assert.LessOrEqual(t, calls, spec.MaxUses, "seed %d: max_uses bounds the calls", r.Seed)
		if calls > 0 {
			withCalls++
		}
	}
	assert.Positive(t, withCalls, "some episode called the tool")
	t.Logf("%d of 12 episodes called python", withCalls)
}

// A bad tool stops Run before any episode, with an error naming -tool.
func TestEvalBadToolFailsFirst(t *testing.T) {
	for _, c := range []struct {
		spec tools.Spec
		want []string
	}{
		{tools.Spec{Name: "pyhton"}, []string{"-tool", `"pyhton"`}},
		{tools.Spec{Name: "python", TopK: 2}, []string{"-tool", "topk"}},
		// valid, but it cannot be built on this machine
		{tools.Spec{Name: "python", Python: filepath.Join(t.TempDir(), "no-python")}, []string{"-env math:Products-v0: -tool", "no-python"}},
	} {
		cfg := toolConfig(3, c.spec)
		dir := filepath.Join(t.TempDir(), "out")
		_, err := eval.Run(context.Background(), cfg, open(t, cfg), eval.Options{Dir: dir, Registry: builtin.Registry()})
		require.Error(t, err, c.spec.Name)
		for _, w := range c.want {
			assert.Contains(t, err.Error(), w)
		}
		assert.NoFileExists(t, filepath.Join(dir, eval.ResultsFile), "no episode was played")
	}
}
