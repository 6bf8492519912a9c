package wordle_test

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/game/gamekit/gamekittest"
	"github.com/gemgo/gemgo/envs/game/wordle"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func registry(t *testing.T) *envs.Registry {
	t.Helper()
	return gamekittest.Registry(t, wordle.Register)
}

func TestRegister(t *testing.T) {
	gamekittest.CheckRegister(t, wordle.Register, "game:Wordle-v0-")
}

// BenchmarkStep plays the hard level's own sampled actions.
func BenchmarkStep(b *testing.B) {
	env := gamekittest.Make[envs.Env](b, wordle.Register, "game:Wordle-v0-hard")
	gamekittest.BenchStep(b, env, gamekittest.Sampled())
}

func TestOptions(t *testing.T) {
	r := registry(t)
	env, err := r.Make("game:Wordle-v0-hard", envs.With("max_turns", 6), envs.With("style", "brief"))
	require.NoError(t, err)
	obs, info, err := env.Reset(3)
	require.NoError(t, err)
	assert.Equal(t, 6, info[envs.InfoMaxTurns])
	assert.Contains(t, obs, "in 6 turns")

	dir := t.TempDir()
	file := filepath.Join(dir, "w.txt")
	require.NoError(t, os.WriteFile(file, []byte("QUOKKA\nzebra\n"), 0o644))
	env, err = r.Make("game:Wordle-v0-hard", envs.With("word_file", file))
	require.NoError(t, err)
	_, _, err = env.Reset(0)
	require.NoError(t, err)
	assert.Equal(t, "zebra", env.(*wordle.Env).Answer(), "the file's only 5-letter word")

	for _, tc := range []struct {
		id   string
		opts []envs.Option
		want string
	}{
		{"game:Wordle-v0-easy", []envs.Option{envs.With("max_turns", 0)}, "max_turns = 0 is out of range"},
		{"game:Wordle-v0-easy", []envs.Option{envs.With("style", "verbose")}, "style"},
		{"game:Wordle-v0-easy", []envs.Option{envs.With("colour", "green")}, "unknown option colour"},
		{"game:Wordle-v0-easy", []envs.Option{envs.With("word_file", filepath.Join(dir, "none"))}, "does not exist"},
		{"game:Wordle-v0-easy", []envs.Option{envs.With("word_file", file)}, "needs words of 3 letters"},
		{"game:Wordle-v0-easy", []envs.Option{envs.With("dictionary", "maybe")}, "dictionary"},
		{"game:Wordle-v0-easy", []envs.Option{envs.With("sample", "smart")}, `sample = "smart": allowed values are any, consistent, first`},
		{"game:Wordle-v0-easy", []envs.Option{envs.With("invalid_reward", 0.5)}, "invalid_reward"},
	} {
		_, err := r.Make(tc.id, tc.opts...)
		assert.ErrorContains(t, err, tc.want)
	}
}

// TestSampleOption: "sample: consistent" reaches the env; after one guess
// the sampler only proposes words that would have given its marks.
func TestSampleOption(t *testing.T) {
	env, err := registry(t).Make("game:Wordle-v0-easy", envs.With("sample", "consistent"))
	require.NoError(t, err)
	w := env.(*wordle.Env)
	_, _, err = w.Reset(11)
	require.NoError(t, err)
	st, err := w.Step(`\boxed{CAT}`)
	require.NoError(t, err)
	marks := make([]byte, 3)
	r := rand.New(rand.NewPCG(1, 2))
	for range 50 {
		g, ok := wordle.ParseGuess(w.SampleAction(r))
		require.True(t, ok)
		wordle.Feedback(marks, g, "cat")
		assert.Contains(t, st.Obs, "CAT: "+strings.Join(strings.Split(string(marks), ""), " ")+".", "guess %s", g)
	}
}

// The invalid_reward option prices every invalid move (wrong length,
// unlisted, repeated) and nothing else: a legal guess with no new green
// still gets 0, a new green its share, and the format error its own -0.1.
func TestInvalidReward(t *testing.T) {
	r := registry(t)
	env, err := r.Make("game:Wordle-v0-easy", envs.With("invalid_reward", -0.25))
	require.NoError(t, err)
	e := env.(*wordle.Env)
	for seed := uint64(0); e.Answer() != "cat"; seed++ {
		require.Less(t, seed, uint64(100000), "no seed gives CAT")
		_, _, err := e.Reset(seed)
		require.NoError(t, err)
	}
	for _, tc := range []struct {
		action string
		reward float64
	}{
		{`\boxed{CRANE}`, -0.25},
		{`\boxed{XQZ}`, -0.25},
		{`\boxed{DOG}`, 0},
		{`\boxed{DOG}`, -0.25},
		{`\boxed{HAT}`, 0.5 * 2 / 3},
		{`\boxed{HAT}`, -0.25},
		{`no box`, envs.RewardFormatError},
	} {
		st, err := e.Step(tc.action)
		require.NoError(t, err)
		assert.InDelta(t, tc.reward, st.Reward, 1e-12, tc.action)
	}
	_, err = r.Make("game:Wordle-v0-easy", envs.With("invalid_reward", -1.5))
	assert.ErrorContains(t, err, "invalid_reward")
}
