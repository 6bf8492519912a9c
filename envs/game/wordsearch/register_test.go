package wordsearch_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/game/gamekit/gamekittest"
	"github.com/gemgo/gemgo/envs/game/wordsearch"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func registry(t *testing.T) *envs.Registry {
	t.Helper()
	return gamekittest.Registry(t, wordsearch.Register)
}

func TestRegister(t *testing.T) {
	gamekittest.CheckRegister(t, wordsearch.Register, "game:WordSearch-v0-")
}

// BenchmarkStep plays the hard level's own sampled actions.
func BenchmarkStep(b *testing.B) {
	env := gamekittest.Make[envs.Env](b, wordsearch.Register, "game:WordSearch-v0-hard")
	gamekittest.BenchStep(b, env, gamekittest.Sampled())
}

func TestOptions(t *testing.T) {
	r := registry(t)
	env, err := r.Make("game:WordSearch-v0-hard", envs.With("max_turns", 9), envs.With("style", "brief"))
	require.NoError(t, err)
	obs, info, err := env.Reset(3)
	require.NoError(t, err)
	assert.Equal(t, 9, info[envs.InfoMaxTurns])
	assert.Contains(t, obs, "Word search, 9 turns.")

	dir := t.TempDir()
	file := filepath.Join(dir, "w.txt")
	list := "ant bee cat dog eel fox gnu hen yak elk emu owl\nape bat cow pig rat ram\napple berry cherry\n"
	require.NoError(t, os.WriteFile(file, []byte(list), 0o644))
	env, err = r.Make("game:WordSearch-v0-easy", envs.With("word_file", file))
	require.NoError(t, err)
	_, _, err = env.Reset(0)
	require.NoError(t, err)
	for _, p := range env.(*wordsearch.Env).Grid().Words {
		assert.Contains(t, list, p.Word)
	}

	for _, tc := range []struct {
		id   string
		opts []envs.Option
		want string
	}{
		{"game:WordSearch-v0-easy", []envs.Option{envs.With("max_turns", 1001)}, "max_turns = 1001 is out of range"},
		{"game:WordSearch-v0-hard", []envs.Option{envs.With("word_file", file)}, "want at least 20"},
		{"game:WordSearch-v0-easy", []envs.Option{envs.With("word_file", filepath.Join(dir, "none"))}, "does not exist"},
		{"game:WordSearch-v0-easy", []envs.Option{envs.With("size", 9)}, "unknown option size"},
	} {
		_, err := r.Make(tc.id, tc.opts...)
		assert.ErrorContains(t, err, tc.want)
	}
}
