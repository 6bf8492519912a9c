package hangman_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/game/gamekit/gamekittest"
	"github.com/gemgo/gemgo/envs/game/hangman"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func registry(t *testing.T) *envs.Registry {
	t.Helper()
	return gamekittest.Registry(t, hangman.Register)
}

func TestRegister(t *testing.T) {
	gamekittest.CheckRegister(t, hangman.Register, "game:Hangman-v0-")
}

// BenchmarkStep plays the hard level's own sampled actions.
func BenchmarkStep(b *testing.B) {
	env := gamekittest.Make[envs.Env](b, hangman.Register, "game:Hangman-v0-hard")
	gamekittest.BenchStep(b, env, gamekittest.Sampled())
}

func TestOptions(t *testing.T) {
	r := registry(t)
	env, err := r.Make("game:Hangman-v0-hard", envs.With("max_turns", 6), envs.With("style", "brief"))
	require.NoError(t, err)
	obs, info, err := env.Reset(3)
	require.NoError(t, err)
	assert.Equal(t, 6, info[envs.InfoMaxTurns])
	assert.Contains(t, obs, "in 6 turns")
	st, err := env.Step(`\boxed{E}`)
	require.NoError(t, err)
	assert.NotContains(t, st.Obs, "Tried:", "GEM's text by default")
	env, err = r.Make("game:Hangman-v0-easy", envs.With("show_tried", true))
	require.NoError(t, err)
	_, _, err = env.Reset(3)
	require.NoError(t, err)
	st, err = env.Step(`\boxed{E}`)
	require.NoError(t, err)
	assert.Contains(t, st.Obs, "turns left. Tried: E.")

	dir := t.TempDir()
	file := filepath.Join(dir, "w.txt")
	require.NoError(t, os.WriteFile(file, []byte("GIRAFFE\nzebra\n"), 0o644))
	env, err = r.Make("game:Hangman-v0-hard", envs.With("word_file", file))
	require.NoError(t, err)
	_, _, err = env.Reset(0)
	require.NoError(t, err)
	assert.Equal(t, "giraffe", env.(*hangman.Env).Secret(), "the file's only 7-letter word")

	for _, tc := range []struct {
		id   string
		opts []envs.Option
		want string
	}{
		{"game:Hangman-v0-easy", []envs.Option{envs.With("max_turns", 0)}, "max_turns = 0 is out of range"},
		{"game:Hangman-v0-easy", []envs.Option{envs.With("style", "verbose")}, "style"},
		{"game:Hangman-v0-easy", []envs.Option{envs.With("colour", "green")}, "unknown option colour"},
		{"game:Hangman-v0-easy", []envs.Option{envs.With("word_file", filepath.Join(dir, "none"))}, "does not exist"},
		{"game:Hangman-v0-easy", []envs.Option{envs.With("word_file", file)}, "needs words of 3 letters"},
		{"game:Hangman-v0-easy", []envs.Option{envs.With("dictionary", "maybe")}, "dictionary"},
		{"game:Hangman-v0-easy", []envs.Option{envs.With("show_tried", "yes")}, "show_tried"},
		{"game:Hangman-v0-easy", []envs.Option{envs.With("sample", "best")}, `sample = "best": allowed values are any, consistent, mode`},
	} {
		_, err := r.Make(tc.id, tc.opts...)
		assert.ErrorContains(t, err, tc.want)
	}
}
