package main

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/builtin"
	"github.com/gemgo/gemgo/internal/cli"
)

func runData(args ...string) (int, string, string) {
	var out, errOut bytes.Buffer
	code := run(context.Background(), args, &out, &errOut)
	return code, out.String(), errOut.String()
}

// An import from the Parquet fixture lands where eval:AIME24 reads it
// ($GEMGO_DATA), and the env then plays its two items; -list shows it.
func TestImportThenEval(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("GEMGO_DATA", dir)
	src := filepath.Join("..", "..", "envs", "bench", "testdata", "source", "aime24.parquet")
	code, stdout, stderr := runData("-set", "aime24", "-in", src)
	require.Equal(t, cli.ExitOK, code, stderr)
	assert.Contains(t, stdout, "eval:AIME24: 2 items from aime24.parquet (sha256 ")
	assert.Contains(t, stdout, filepath.Join(dir, "aime24.jsonl"))

	env, err := builtin.Registry().Make("eval:AIME24")
	require.NoError(t, err)
	_, _, err = env.Reset(1)
	require.NoError(t, err)
	st, err := env.Step(`\boxed{24}`)
	require.NoError(t, err)
	assert.Equal(t, 1.0, st.Reward)
	require.NoError(t, envs.Close(env))

	code, stdout, _ = runData("-list")
	require.Equal(t, cli.ExitOK, code)
	assert.Regexp(t, `aime24 +eval:AIME24 +2 `, stdout)
	assert.Regexp(t, `gsm8k +eval:GSM8K +not imported `, stdout)
}

func TestBadUse(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"-set", "gsm8k"}, cli.ExitUsage, "data: -set and -in are required"},
		{[]string{"-set", "gsm9k", "-in", "x.jsonl"}, cli.ExitUsage, `unknown benchmark "gsm9k"`},
		{[]string{"-set", "gsm8k", "-in", filepath.Join(dir, "none.jsonl"), "-data", dir}, cli.ExitFailed, "read source"},
	} {
		code, stdout, stderr := runData(tc.args...)
		assert.Equal(t, tc.code, code, "%q", tc.args)
		assert.Empty(t, stdout)
		assert.Contains(t, stderr, tc.want)
	}
}
