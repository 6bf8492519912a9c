package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/compare"
	"github.com/gemgo/gemgo/internal/cli"
	"github.com/gemgo/gemgo/metrics/metricstest"
)

const base = `
iterations: 2
model: {layers: 1, d_model: 16, heads: 2, context: 64}
tokenizer: {corpus_episodes: 20}
warmup: {steps: 3, batch_size: 8, lr: 0.003}
env: {num_envs: 8, options: {style: brief}}
rollout: {episodes: 8}
algo: {minibatch_size: 16}
eval: {every: 1, episodes: 8}
`

func suiteDir(t *testing.T) string {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"base.yaml":  base,
		"guess.yaml": "base: base.yaml\nenv: {id: \"game:GuessTheNumber-v0-easy\", options: {style: brief, partial_credit: false}}\n",
		"bits.yaml":  "base: base.yaml\nenv: {id: \"rg:count_bits\", options: {style: brief, bits: 4}}\n",
		"suite.yaml": "name: t\nconfigs: [guess, bits]\nseeds: [1, 2, 3]\n",
	} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644))
	}
	return dir
}

func TestRunTrainsTablesAndResumes(t *testing.T) {
	dir := suiteDir(t)
	out := filepath.Join(dir, "out")
	args := []string{"-config", filepath.Join(dir, "suite.yaml"), "-out", out, "-parallel", "2"}
	var stdout, stderr bytes.Buffer
	require.Equal(t, cli.ExitOK, run(context.Background(), append(args, "-only", "bits"), &stdout, &stderr), stderr.String())
	assert.Contains(t, stdout.String(), "3 runs to consider")
	table, err := os.ReadFile(filepath.Join(out, "table.md"))
	require.NoError(t, err)
	lines := strings.Split(string(table), "\n")
	require.GreaterOrEqual(t, len(lines), 4)
	assert.True(t, strings.HasPrefix(lines[2], "| guess | game:GuessTheNumber-v0-easy | "), lines[2])
	assert.True(t, strings.HasSuffix(lines[2], "| 1.000 | – | – | – | 0/3 | – | – |"), "guess not trained yet, so no verdict; its solver wins: %s", lines[2])
	assert.Contains(t, lines[3], "| bits | rg:count_bits | ")
	assert.Contains(t, lines[3], "| none | ")
	assert.Contains(t, lines[3], "| 3/3 | 16 | ", "3 seeds complete; 2 iterations × 8 one-step episodes a run")
	assert.Contains(t, string(table), "Machine: ")
	assert.Contains(t, string(table), "\nOf the 1 configs with every seed finished (of 2): ", "the verdicts counted under the table")
	assert.Contains(t, stdout.String(), "Of the 1 configs with every seed finished (of 2): ")

	stdout.Reset()
	require.Equal(t, cli.ExitOK, run(context.Background(), args, &stdout, &stderr), stderr.String())
	assert.Equal(t, 3, strings.Count(stdout.String(), "skipped (already finished)"), "the bits runs are not trained again")
	var sum compare.Summary
	data, err := os.ReadFile(filepath.Join(out, compare.SummaryFile))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &sum))
	require.Len(t, sum.Arms, 2)
	assert.Equal(t, 3, sum.Arms[0].Complete)
	assert.Empty(t, sum.Pairs, "different envs are not compared")
	ref := sum.Extra["reference"].(map[string]any)["guess"].(map[string]any)
	assert.Equal(t, 1.0, ref["solver"])
	assert.Contains(t, []any{"above", "at", "below"}, ref["verdict"], "every seed finished")
	bits := sum.Extra["reference"].(map[string]any)["bits"].(map[string]any)
	ci := bits["random_ci"].([]any)
	require.Len(t, ci, 2)
	assert.True(t, ci[0].(float64) <= bits["random"].(float64) && bits["random"].(float64) <= ci[1].(float64), "%v", bits)
	assert.Contains(t, []any{"above", "at", "below"}, bits["verdict"])
	page, err := os.ReadFile(filepath.Join(out, "report.html"))
	require.NoError(t, err)
	assert.Contains(t, string(page), "guess (game:GuessTheNumber-v0-easy)")
	assert.Contains(t, string(page), "random play")

	// -report only redraws.
	stdout.Reset()
	require.Equal(t, cli.ExitOK, run(context.Background(), append(args, "-report"), &stdout, &stderr), stderr.String())
	assert.NotContains(t, stdout.String(), "runs to consider")
}

func TestUsageErrors(t *testing.T) {
	dir := suiteDir(t)
	suite := filepath.Join(dir, "suite.yaml")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-config", filepath.Join(dir, "none.yaml")}, "no such file"},
		{[]string{"-config", suite, "-only", "guess,nope"}, "-only nope: no such config in the suite (it has guess, bits)"},
		{[]string{"-config", suite, "extra"}, `unexpected argument "extra"`},
		{[]string{"-bogus"}, "flag provided but not defined"},
	} {
		var stdout, stderr bytes.Buffer
		assert.Equal(t, cli.ExitUsage, run(context.Background(), c.args, &stdout, &stderr), c.args)
		assert.Contains(t, stderr.String(), c.want)
	}
	var stdout, stderr bytes.Buffer
	assert.Equal(t, cli.ExitOK, run(context.Background(), []string{"-h"}, &stdout, &stderr))
	assert.Contains(t, stdout.String(), "usage: baselines")
}

// The suite's report opens offline in a browser with a chart per config:
// the trained curve beside the random and solver lines.
func TestReportInBrowser(t *testing.T) {
	ctx, log := metricstest.NewBrowser(t)
	dir := suiteDir(t)
	out := filepath.Join(dir, "out")
	var stdout, stderr bytes.Buffer
	require.Equal(t, cli.ExitOK, run(context.Background(), []string{"-config", filepath.Join(dir, "suite.yaml"), "-out", out}, &stdout, &stderr), stderr.String())
	srv := metricstest.Serve(t, out)
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/report.html")))
	titles := metricstest.RequireDrawn(t, metricstest.Charts(t, ctx))
	assert.Contains(t, titles, "guess (game:GuessTheNumber-v0-easy)")
	assert.Contains(t, titles, "bits (rg:count_bits)")
	body, err := chromedp.Run(ctx, chromedp.Text("body"))
	require.NoError(t, err)
	for _, want := range []string{"Baselines: final greedy success", "trained − random", "solver"} {
		assert.Contains(t, body, want)
	}
	log.RequireClean(t, srv, "/report.html")
}
