package crosswords_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/envtest"
	"github.com/gemgo/gemgo/envs/game/crosswords"
	"github.com/gemgo/gemgo/envs/game/gamekit/gamekittest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var ids = []string{"game:Crosswords-v0-easy", "game:Crosswords-v0-hard", "game:Crosswords-v0-random"}

func registry(t *testing.T) *envs.Registry {
	t.Helper()
	return gamekittest.Registry(t, crosswords.Register)
}

func TestRegisteredIDs(t *testing.T) {
	r := registry(t)
	assert.Equal(t, ids, r.IDs())
	for _, id := range ids {
		assert.NotEmpty(t, r.Description(id))
	}
}

func TestCheckEnv(t *testing.T) {
	r := registry(t)
	for _, id := range ids {
		t.Run(id, func(t *testing.T) {
			envtest.CheckEnv(t, func() (envs.Env, error) { return r.Make(id) })
		})
	}
}

func TestOptions(t *testing.T) {
	r := registry(t)
	env, err := r.Make("game:Crosswords-v0-hard", envs.With("max_turns", 12), envs.With("style", "brief"))
	require.NoError(t, err)
	obs, info, err := env.Reset(3)
	require.NoError(t, err)
	assert.Equal(t, 12, info[envs.InfoMaxTurns])
	assert.Contains(t, obs, "Crossword, 12 turns.")

	dir := t.TempDir()
	good := filepath.Join(dir, "clues.txt")
	require.NoError(t, os.WriteFile(good, []byte("cat: Purring pet\ntea: Hot drink\nant: Colony insect\n"), 0o644))
	env, err = r.Make("game:Crosswords-v0-easy", envs.With("clue_file", good))
	require.NoError(t, err)
	_, _, err = env.Reset(0)
	require.NoError(t, err)
	for _, e := range env.(*crosswords.Env).Puzzle().Entries {
		assert.Contains(t, []string{"cat", "tea", "ant"}, e.Word)
	}

	bad := filepath.Join(dir, "bad.txt")
	require.NoError(t, os.WriteFile(bad, []byte("abc: x\ndef: y\nghi: z\n"), 0o644))
	for _, tc := range []struct {
		opts []envs.Option
		want string
	}{
		{[]envs.Option{envs.With("max_turns", -3)}, "max_turns = -3 is out of range"},
		{[]envs.Option{envs.With("word_file", "x")}, "unknown option word_file"},
		{[]envs.Option{envs.With("clue_file", filepath.Join(dir, "none"))}, "does not exist"},
		{[]envs.Option{envs.With("clue_file", bad)}, "cannot build a grid"},
	} {
		_, err := r.Make("game:Crosswords-v0-easy", tc.opts...)
		assert.ErrorContains(t, err, tc.want)
	}
}
