package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/eval"
	"github.com/gemgo/gemgo/internal/cli"
)

// fixtures is envs/bench's directory of imported test sets.
var fixtures = filepath.Join("..", "..", "envs", "bench", "testdata", "data")

// One run scores one benchmark in both answer formats (per-env options
// beside the global -opt), and -episodes all plays each of its 3 items
// once, seeds 0, 1, 2: the oracle's reference answers score 1.000.
func TestPerEnvOptionsAndEpisodesAll(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	boxed := "eval:GSM8K?answer_format=boxed"
	tagged := "eval:GSM8K?answer_format=answer_tag&style=brief"
	args := []string{"-policy", "oracle", "-env", boxed, "-env", tagged, "-opt", "data_dir=" + fixtures, "-episodes", "all", "-out", out}
	var stdout, stderr bytes.Buffer
	require.Equal(t, cli.ExitOK, run(context.Background(), args, &stdout, &stderr), stderr.String())
	assert.Contains(t, stderr.String(), "eval: 6 episodes played")
	assert.Contains(t, stdout.String(), "| "+boxed+" | ")
	assert.Contains(t, stdout.String(), "| "+boxed+" | 1.000 [1.000, 1.000] |")
	assert.Contains(t, stdout.String(), "| "+tagged+" | 1.000 [1.000, 1.000] |")

	b, err := os.ReadFile(filepath.Join(out, "metadata.json"))
	require.NoError(t, err)
	var md eval.Metadata
	require.NoError(t, json.Unmarshal(b, &md))
	assert.Equal(t, 3, md.Config.Episodes)
	assert.Equal(t, uint64(0), md.Config.SeedBase, "-episodes all starts at seed 0: file order")

	// each spec's own options reached its env: the tagged one asked for <answer> tags, briefly
	rb, err := os.ReadFile(filepath.Join(out, eval.ResultsFile))
	require.NoError(t, err)
	var sawTag, sawBox bool
	for _, line := range strings.Split(strings.TrimSpace(string(rb)), "\n") {
		var rec map[string]any
		require.NoError(t, json.Unmarshal([]byte(line), &rec))
		text := line
		switch rec["env"] {
		case tagged:
			sawTag = true
			assert.Contains(t, text, `\u003canswer\u003e`, "answer_tag reached %s", tagged)
		case boxed:
			sawBox = true
			assert.Contains(t, text, `\\boxed{`, "boxed reached %s", boxed)
		}
	}
	assert.True(t, sawTag && sawBox, "records of both specs")
}

func TestEpisodesAllErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-env", "game:GuessTheNumber-v0-easy"}, "-env game:GuessTheNumber-v0-easy has no fixed list of items"},
		{[]string{"-env", "eval:GSM8K?data_dir=" + fixtures, "-env", "eval:AMC?data_dir=" + fixtures}, "the envs hold different numbers of items (eval:GSM8K?data_dir=" + fixtures + " 3, eval:AMC?data_dir=" + fixtures + " 2): run one evaluation per env"},
		{[]string{"-env", "eval:GSM8K?data_dir=" + fixtures + "&style=gem&style=brief"}, `option style is given 2 times`},
		{[]string{"-env", "eval:GSM8K?data_dir=" + fixtures + "&style=long"}, `style`},
	} {
		args := append([]string{"-policy", "oracle", "-episodes", "all", "-out", t.TempDir()}, tc.args...)
		var stdout, stderr bytes.Buffer
		assert.Equal(t, cli.ExitUsage, run(context.Background(), args, &stdout, &stderr), "%q", tc.args)
		assert.Contains(t, stderr.String(), tc.want, "%q", tc.args)
	}
	// a malformed spec is a usage error without -episodes all too (Config.Validate)
	var stdout, stderr bytes.Buffer
	assert.Equal(t, cli.ExitUsage, run(context.Background(), []string{"-policy", "random", "-env", "game:Wordle-v0?=x", "-out", t.TempDir()}, &stdout, &stderr))
	assert.Contains(t, stderr.String(), `-env "game:Wordle-v0?=x": an option without a key`)
	stderr.Reset()
	assert.Equal(t, cli.ExitUsage, run(context.Background(), []string{"-episodes", "some"}, &stdout, &stderr))
	assert.Contains(t, stderr.String(), "want a number of seeds per env or all")
}
