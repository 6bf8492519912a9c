package crosswords_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/game/crosswords"
	"github.com/gemgo/gemgo/envs/game/gamekit/gamekittest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func registry(t *testing.T) *envs.Registry {
	t.Helper()
	return gamekittest.Registry(t, crosswords.Register)
}

func TestRegister(t *testing.T) {
	gamekittest.CheckRegister(t, crosswords.Register, "game:Crosswords-v0-")
}

// BenchmarkStep plays the hard level's own sampled actions.
func BenchmarkStep(b *testing.B) {
	env := gamekittest.Make[envs.Env](b, crosswords.Register, "game:Crosswords-v0-hard")
	gamekittest.BenchStep(b, env, gamekittest.Sampled())
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

	// view and sample reach the env: the teacher fills the first clue's
	// first cell, and the cells view lists it.
	env, err = r.Make("game:Crosswords-v0-easy", envs.With("style", "brief"), envs.With("view", "cells"), envs.With("sample", "first"))
	require.NoError(t, err)
	obs, _, err = env.Reset(1 << 40)
	require.NoError(t, err)
	assert.Contains(t, obs, "\n1. It rings in a church tower: 0,0 _ 0,1 _ 0,2 _ 0,3 _\n")
	assert.Equal(t, `\boxed{0 0 B}`, env.(*crosswords.Env).SampleAction(nil))

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
		{[]envs.Option{envs.With("sample", "best")}, `option sample = "best": allowed values are any, first`},
		{[]envs.Option{envs.With("view", "board")}, `option view = "board": allowed values are grid, cells`},
	} {
		_, err := r.Make("game:Crosswords-v0-easy", tc.opts...)
		assert.ErrorContains(t, err, tc.want)
	}
}
