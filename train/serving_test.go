package train

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/chat"
	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/envtest"
	"github.com/gemgo/gemgo/policy"
)

// requireSameSettings compares field by field; empty and nil env options
// are the same (no options).
func requireSameSettings(t *testing.T, want, got chat.Settings, name string) {
	t.Helper()
	require.Equal(t, want.Format, got.Format, "%s: format", name)
	require.Equal(t, want.MaxTokens, got.MaxTokens, "%s: max tokens", name)
	require.Equal(t, want.RequireEOS, got.RequireEOS, "%s: require_eos", name)
	require.Equal(t, want.Temperature, got.Temperature, "%s: temperature", name)
	require.Equal(t, want.EnvID, got.EnvID, "%s: env id", name)
	if len(want.EnvOptions) != 0 || len(got.EnvOptions) != 0 {
		require.Equal(t, want.EnvOptions, got.EnvOptions, "%s: env options", name)
	}
}

// A checkpoint that carries only the training config (written before
// the serving record existed) is served with the settings this package
// derives from the same config: package chat reads the few keys it needs
// without importing train, and this test keeps the two from drifting
// (defaults included: a key an older trainer did not write).
func TestLegacyCheckpointSettingsMatchTrain(t *testing.T) {
	marshal := func(edit func(*Config)) string {
		c := DefaultConfig()
		edit(&c)
		y, err := c.Marshal()
		require.NoError(t, err)
		return string(y)
	}
	const older = "name: old\nenv:\n  id: game:GuessTheNumber-v0-hard\n  history: none\nsample:\n  max_new_tokens: 12\n"
	fixtures := []struct{ name, text, trainText string }{
		{name: "defaults", text: marshal(func(*Config) {})},
		{name: "main job", text: marshal(func(c *Config) {
			c.Env.History, c.Env.HistoryKeep = envs.HistoryActions, 3
			c.Env.Options = EnvOptions{"style": "brief", "max_turns": 7, "ratio": 0.5}
			c.Sample.MaxNewTokens, c.Sample.Temperature, c.Sample.TopP, c.Sample.RequireEOS = 24, 1.3, 0.9, false
			c.Eval.Options = EnvOptions{"split": "test", "max_turns": 5}
		})},
		{name: "no options", text: marshal(func(c *Config) {
			c.Env.ID, c.Env.Options, c.Env.History = "game:Minesweeper-v0-easy", nil, envs.HistoryNone
		})},
		// An older trainer's text: the keys added since are absent (their
		// defaults apply); keys since removed are skipped by chat (train's
		// strict decode reads the text without them).
		{name: "older trainer", text: older + "retired_section: {a: 1}\n", trainText: older},
		{name: "options replaced, not merged", text: "env:\n  options: {partial_credit: true}\n"},
		{name: "empty", text: "{}\n"},
	}
	for _, f := range fixtures {
		trainText := f.trainText
		if trainText == "" {
			trainText = f.text
		}
		cfg, err := Parse([]byte(trainText), nil)
		require.NoError(t, err, f.name)
		got, err := chat.CheckpointSettings(&policy.Checkpoint{Meta: map[string]string{"config": f.text}})
		require.NoError(t, err, f.name)
		requireSameSettings(t, cfg.servingSettings(), got, f.name)
	}

	// A checkpoint with neither record: train's defaults, latest observation only.
	got, err := chat.CheckpointSettings(&policy.Checkpoint{Meta: map[string]string{}})
	require.NoError(t, err)
	want := DefaultConfig()
	want.Env.History = envs.HistoryNone
	requireSameSettings(t, want.servingSettings(), got, "no config")
}

// Every checkpoint a run writes (checkpoint, reference and final) carries
// the serving record, which reads back as the run's settings, env option
// numbers as their YAML kinds, the same as its config read the legacy way.
func TestCheckpointsCarryServingSettings(t *testing.T) {
	reg := envs.NewRegistry()
	require.NoError(t, reg.Register("test:toy", func(o *envs.Options) (envs.Env, error) {
		return &envtest.Toy{MaxTurns: o.Int("turns", 3, 1, 9)}, nil
	}))
	cfg := tinyConfig("rebn")
	cfg.Iterations = 2
	cfg.Env.ID, cfg.Env.History, cfg.Env.HistoryKeep = "test:toy", envs.HistoryActions, 2
	cfg.Env.Options = EnvOptions{"turns": 3}
	cfg.Eval.Options = EnvOptions{"turns": 2}
	cfg.Sample.MaxNewTokens, cfg.Sample.Temperature, cfg.Sample.RequireEOS = 6, 0.9, false
	dir := t.TempDir()
	_, err := Run(context.Background(), cfg, reg, Options{Dir: dir, Observer: &recordObserver{}})
	require.NoError(t, err)
	want := chat.Settings{Format: chat.Format{History: envs.HistoryActions, Keep: 2}, MaxTokens: 6, Temperature: 0.9,
		EnvID: "test:toy", EnvOptions: map[string]any{"turns": 2}}
	for _, file := range []string{CheckpointFile, ReferenceFile, FinalFile} {
		ck, err := policy.LoadCheckpoint(filepath.Join(dir, file))
		require.NoError(t, err, file)
		require.Contains(t, ck.Meta, chat.SettingsKey, file)
		got, err := chat.CheckpointSettings(ck)
		require.NoError(t, err, file)
		assert.Equal(t, want, got, file)
		delete(ck.Meta, chat.SettingsKey)
		legacy, err := chat.CheckpointSettings(ck)
		require.NoError(t, err, file)
		assert.Equal(t, want, legacy, "%s read from its config", file)
	}
}
