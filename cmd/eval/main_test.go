package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gemgo/gemgo/eval"
	"github.com/gemgo/gemgo/internal/cli"
	"github.com/gemgo/gemgo/internal/fslock"
	"github.com/gemgo/gemgo/tools"
	"github.com/stretchr/testify/require"
)

func TestUsageErrors(t *testing.T) {
	for args, want := range map[string]string{
		"-env game:GuessTheNumber-v0-easy -out D":                                      "no -policy",
		"-policy random -out D":                                                        "no -env",
		"-policy random -env game:GuessTheNumber-v0-easy":                              "-out DIR is required",
		"-policy nope -env game:GuessTheNumber-v0-easy -out D":                         "not random, oracle",
		"-policy random -env game:GuessTheNumber-v0-easy -samples 4 -out D":            "-temperature > 0",
		"-policy random -env game:GuessTheNumbr-v0-easy -out D":                        "GuessTheNumber-v0-easy",
		"-policy random -env game:GuessTheNumber-v0-easy -opt x -out D":                "want key=value",
		"-policy random -env game:GuessTheNumber-v0-easy -tool serch -out D":           `-tool: env.tools[0].name = "serch"`,
		"-policy random -env game:GuessTheNumber-v0-easy -tool-protocol json -out D":   `-tool-protocol = "json": allowed text, native`,
		"-policy random -env game:GuessTheNumber-v0-easy -tool-protocol native -out D": "-tool-protocol native without -tool",
	} {
		var out, errb bytes.Buffer
		a := strings.ReplaceAll(args, " D", " "+t.TempDir())
		code := run(context.Background(), strings.Fields(a), &out, &errb)
		require.Equal(t, cli.ExitUsage, code, "%s: %s", args, errb.String())
		require.Contains(t, errb.String(), want, args)
	}
}

func TestEvalPrintsTheTable(t *testing.T) {
	dir := t.TempDir()
	envFile := filepath.Join(dir, "envs.txt")
	require.NoError(t, os.WriteFile(envFile, []byte("# the games\ngame:GuessTheNumber-v0-easy\n"), 0o644))
	args := []string{"-policy", "random", "-policy", "oracle", "-env-file", envFile, "-opt", "style=brief", "-episodes", "20", "-out", filepath.Join(dir, "out")}
	var out, errb bytes.Buffer
	require.Equal(t, cli.ExitOK, run(context.Background(), args, &out, &errb), errb.String())
	require.Contains(t, out.String(), "| game:GuessTheNumber-v0-easy | ")
	require.Contains(t, out.String(), "1.000 [1.000, 1.000]", "the oracle's success")
	for _, f := range []string{"results.jsonl", "metadata.json", "report.html", "results.md"} {
		require.FileExists(t, filepath.Join(dir, "out", f))
	}
	// a canceled run exits 130
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	args[len(args)-1] = filepath.Join(dir, "out2")
	require.Equal(t, cli.ExitInterrupted, run(ctx, args, &out, &errb))
}

// -tool reaches the config: the run's metadata holds the spec and every
// episode starts with the tool's instructions; a malformed -tool is a
// usage error.
func TestToolFlag(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	args := []string{"-policy", "random", "-env", "qa:Fictional-v0-onehop", "-tool", "{name: search, topk: 1, max_uses: 2}", "-episodes", "3", "-out", out}
	var stdout, errb bytes.Buffer
	require.Equal(t, cli.ExitOK, run(context.Background(), args, &stdout, &errb), errb.String())
	b, err := os.ReadFile(filepath.Join(out, eval.MetadataFile))
	require.NoError(t, err)
	var md eval.Metadata
	require.NoError(t, json.Unmarshal(b, &md))
	require.Equal(t, []tools.Spec{{Name: "search", TopK: 1, MaxUses: 2}}, md.Config.Tools)
	recs, err := eval.ReadResults(filepath.Join(out, eval.ResultsFile))
	require.NoError(t, err)
	require.Len(t, recs, 3)
	for _, r := range recs {
		require.Empty(t, r.Error)
		require.Contains(t, r.Messages[0].Content, "<search>", "seed %d: the search tool's instructions", r.Seed)
	}

	for _, bad := range []string{"{name: search, top: 1}", "{name: search"} {
		errb.Reset()
		args := []string{"-policy", "random", "-env", "qa:Fictional-v0-onehop", "-tool", bad, "-out", filepath.Join(dir, "bad")}
		require.Equal(t, cli.ExitUsage, run(context.Background(), args, &stdout, &errb), bad)
		require.Contains(t, errb.String(), "-tool", bad)
		require.Contains(t, errb.String(), bad)
	}
}

// -tool-protocol is saved in the resolved config when native, and text
// (the default, given or not) leaves the config as before the flag.
func TestToolProtocolFlag(t *testing.T) {
	for _, c := range []struct{ flag, want string }{{"", ""}, {"text", ""}, {"native", "native"}} {
		out := filepath.Join(t.TempDir(), "out")
		args := []string{"-policy", "random", "-env", "qa:Fictional-v0-onehop", "-tool", "search", "-episodes", "1", "-out", out}
		if c.flag != "" {
			args = append(args, "-tool-protocol", c.flag)
		}
		var stdout, errb bytes.Buffer
		require.Equal(t, cli.ExitOK, run(context.Background(), args, &stdout, &errb), errb.String())
		b, err := os.ReadFile(filepath.Join(out, eval.MetadataFile))
		require.NoError(t, err)
		var md eval.Metadata
		require.NoError(t, json.Unmarshal(b, &md))
		require.Equal(t, c.want, md.Config.ToolProtocol, c.flag)
	}
}

// An error of the eval package reaches the user with one "eval: " prefix
// (the command's), never "eval: eval:".
func TestErrorsHaveOnePrefix(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	args := []string{"-policy", "random", "-env", "game:GuessTheNumber-v0-easy", "-opt", "style=brief", "-episodes", "3", "-out", out}
	var stdout, errb bytes.Buffer
	require.Equal(t, cli.ExitOK, run(context.Background(), args, &stdout, &errb), errb.String())

	errb.Reset()
	args[5] = "style=gem"
	require.Equal(t, cli.ExitFailed, run(context.Background(), args, &stdout, &errb))
	require.True(t, strings.HasPrefix(errb.String(), "eval: "+filepath.Join(out, eval.ResultsFile)+" line 1 was played with other settings"), errb.String())
	require.NotContains(t, errb.String(), "eval: eval:")
}

// A run into a directory that another eval holds exits at once with a
// message naming the directory, the other eval and its process id.
func TestLockedDirectoryIsRefused(t *testing.T) {
	out := t.TempDir()
	release, err := fslock.Lock(out) // as a running eval holds it
	require.NoError(t, err)
	defer release()
	args := []string{"-policy", "random", "-env", "game:GuessTheNumber-v0-easy", "-episodes", "3", "-out", out}
	var stdout, errb bytes.Buffer
	require.Equal(t, cli.ExitFailed, run(context.Background(), args, &stdout, &errb))
	require.Equal(t, fmt.Sprintf("eval: %s is locked by another process (pid %d): another eval is running in this directory; wait for it to finish, or choose another -out directory\n", out, os.Getpid()), errb.String())
	require.NoFileExists(t, filepath.Join(out, eval.ResultsFile), "nothing is written")
}
