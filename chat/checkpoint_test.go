package chat_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/chat"
	"github.com/gemgo/gemgo/chat/chattest"
	"github.com/gemgo/gemgo/policy"
)

// The serving record reads back as written: env option numbers come back
// as the YAML of a training config decodes them (int when whole), and
// keys a later trainer may add are skipped.
func TestSettingsRecordRoundTrip(t *testing.T) {
	set := chat.Settings{Format: chat.Format{History: chat.HistoryActions, Keep: 3}, MaxTokens: 24, Temperature: 1.3,
		EnvID: "game:Sudoku-v0-easy", EnvOptions: map[string]any{"style": "brief", "max_turns": 7, "ratio": 0.5, "list": []any{1, 2.5}, "big": 1 << 40}}
	meta := map[string]string{}
	require.NoError(t, chat.PutSettings(meta, set))
	got, err := chat.CheckpointSettings(&policy.Checkpoint{Meta: meta})
	require.NoError(t, err)
	require.Equal(t, set, got)

	later := map[string]string{chat.SettingsKey: `{"format":{"history":"none"},"max_tokens":5,"env_id":"x","chat_template":"new"}`}
	got, err = chat.CheckpointSettings(&policy.Checkpoint{Meta: later})
	require.NoError(t, err)
	require.Equal(t, chat.Settings{Format: chat.Format{History: chat.HistoryNone}, MaxTokens: 5, EnvID: "x"}, got)

	// The record wins over the training config beside it.
	meta["config"] = "env: {history: none}\n"
	got, err = chat.CheckpointSettings(&policy.Checkpoint{Meta: meta})
	require.NoError(t, err)
	require.Equal(t, set.Format, got.Format)
}

// A broken record or config is an error that says which and what is
// wrong, not a panic nor a silent default.
func TestCheckpointSettingsErrors(t *testing.T) {
	for meta, want := range map[[2]string]string{
		{chat.SettingsKey, `{"format":`}:                                   `serving settings (metadata "serving")`,
		{chat.SettingsKey, `{"format":{"history":"all"},"max_tokens":8}`}:  `env.history "all": allowed none, observations, actions`,
		{chat.SettingsKey, `{"format":{"history":"none"},"max_tokens":0}`}: "sample.max_new_tokens = 0",
		{chat.SettingsKey, `{"max_tokens":8,"temperature":-1}`}:            "sample.temperature = -1",
		{"config", "env: [unclosed\n"}:                                     "training config",
		{"config", "env: {history: everything}\n"}:                         `env.history "everything"`,
		{"config", "sample: {max_new_tokens: nine}\n"}:                     "training config",
	} {
		_, err := chat.CheckpointSettings(&policy.Checkpoint{Meta: map[string]string{meta[0]: meta[1]}})
		require.ErrorContains(t, err, want, meta[1])
	}
}

// A request without a temperature samples at the training run's
// (Settings.Temperature); 0 there means 1.
func TestEngineSamplesAtTheRunsSettings(t *testing.T) {
	ck := chattest.Checkpoint(t, chat.HistoryNone)
	set, err := chat.CheckpointSettings(ck)
	require.NoError(t, err)
	set.Temperature = 0.5
	eng, err := chat.NewEngine(ck, chat.EngineConfig{Settings: set})
	require.NoError(t, err)
	defer eng.Close()
	obs := []chat.Message{{Role: chat.RoleUser, Content: "Guess the number between 1 and 10 in 4 turns. Answer \\boxed{n}."}}
	seed := int64(3)
	answers := func(req chat.Request) []chat.Choice {
		req.Messages, req.N, req.Seed = obs, 16, &seed
		r, err := eng.Complete(context.Background(), req)
		require.NoError(t, err)
		return r.Choices
	}
	byDefault := answers(chat.Request{})
	require.Equal(t, answers(chat.Request{Temperature: chat.Float(0.5)}), byDefault)
	require.NotEqual(t, answers(chat.Request{Temperature: chat.Float(1)}), byDefault)

	// A temperature of 0 in the settings is 1; top_p = 1 is no nucleus.
	set.Temperature = 0
	plain, err := chat.NewEngine(ck, chat.EngineConfig{Settings: set})
	require.NoError(t, err)
	defer plain.Close()
	r, err := plain.Complete(context.Background(), chat.Request{Messages: obs, N: 16, Seed: &seed})
	require.NoError(t, err)
	require.Equal(t, answers(chat.Request{Temperature: chat.Float(1), TopP: chat.Float(1)}), r.Choices)
}
