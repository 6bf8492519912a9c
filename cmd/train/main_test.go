package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/internal/cli"
	"github.com/gemgo/gemgo/train"
)

const tiny = `name: tiny
iterations: 2
model: {layers: 1, d_model: 16, heads: 2, context: 64}
tokenizer: {corpus_episodes: 20}
warmup: {steps: 3, batch_size: 8}
env: {num_envs: 8}
rollout: {episodes: 8}
algo: {minibatch_size: 16}
eval: {every: 1, episodes: 8}
`

func writeConfig(t *testing.T, text string) string {
	p := filepath.Join(t.TempDir(), "c.yaml")
	require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	return p
}

func runCmd(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestTrainEndToEnd(t *testing.T) {
	out := t.TempDir()
	code, stdout, stderr := runCmd("-config", writeConfig(t, tiny), "-out", out)
	require.Equal(t, cli.ExitOK, code, stderr)
	dir := filepath.Join(out, "tiny")
	for _, f := range []string{"config.yaml", "metrics.jsonl", "metrics.csv", "report.html", "checkpoint.safetensors", "final.safetensors"} {
		assert.FileExists(t, filepath.Join(dir, f))
	}
	assert.Contains(t, stdout, "iter=2/2")
	assert.Contains(t, stdout, "eval iter=2")
	assert.Contains(t, stdout, "done in")
	assert.NotContains(t, stdout, "caution:", "the default temperature draws none")
	// A second run with the same name gets a fresh directory; this one has
	// a learning rate that does not decay by the last iteration.
	code, stdout, stderr = runCmd("-config", writeConfig(t, tiny+"optim: {cosine: false}\n"), "-out", out)
	require.Equal(t, cli.ExitOK, code, stderr)
	assert.Contains(t, stdout, filepath.Join(out, "tiny-2"))
	// Resuming a finished run has nothing left to do: it says so, succeeds
	// and leaves every file as it was.
	before := snapshot(t, dir)
	code, stdout, stderr = runCmd("-resume", dir)
	assert.Equal(t, cli.ExitOK, code, stderr)
	assert.Contains(t, stdout, "already finished: 2 of 2 iterations")
	assert.Equal(t, before, snapshot(t, dir), "a finished run's files are byte-identical after -resume")
	// More iterations would change where the cosine decay ends: refused.
	code, _, stderr = runCmd("-resume", dir, "-set", "iterations=3")
	assert.Equal(t, cli.ExitFailed, code)
	assert.Contains(t, stderr, "iterations (2 → 3)")
	assert.Contains(t, stderr, "cosine")
	assert.Equal(t, before, snapshot(t, dir))
	// Without the decay, more iterations continue the run, and config.yaml
	// records the new length (it stays the run's record).
	dir2 := filepath.Join(out, "tiny-2")
	code, stdout, stderr = runCmd("-resume", dir2, "-set", "iterations=3")
	require.Equal(t, cli.ExitOK, code, stderr)
	assert.Contains(t, stdout, "iter=3/3")
	assert.NotContains(t, stdout, "iter=1/3")
	saved, err := train.LoadFile(filepath.Join(dir2, "config.yaml"), nil)
	require.NoError(t, err)
	assert.Equal(t, 3, saved.Iterations)
}

// snapshot maps every file of dir to its bytes.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	ents, err := os.ReadDir(dir)
	require.NoError(t, err)
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		require.NoError(t, err)
		out[e.Name()] = string(b)
	}
	return out
}

// A resume that changes the trajectory (γ here, by -set or by an edit of
// config.yaml) is refused naming the key, and touches nothing; a resume
// of an unfinished run removes the litter of a killed atomic write and
// keeps the final evaluation in its report.
func TestResumeRefusesChangedConfig(t *testing.T) {
	out := t.TempDir()
	code, _, stderr := runCmd("-config", writeConfig(t, tiny), "-out", out)
	require.Equal(t, cli.ExitOK, code, stderr)
	dir := filepath.Join(out, "tiny")
	report, err := os.ReadFile(filepath.Join(dir, "report.html"))
	require.NoError(t, err)
	require.Contains(t, string(report), "greedy success")
	// Unfinished: the final weights are missing (killed after the last
	// checkpoint), and two writes were killed before their rename.
	require.NoError(t, os.Remove(filepath.Join(dir, "final.safetensors")))
	litter := []string{".checkpoint.safetensors.tmp-1234567", ".report.html.tmp-42"}
	for _, name := range litter {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte("half"), 0o644))
	}
	before := snapshot(t, dir)

	code, _, stderr = runCmd("-resume", dir, "-set", "algo.gamma=0.5")
	assert.Equal(t, cli.ExitFailed, code)
	assert.Contains(t, stderr, "algo.gamma (0.9 → 0.5)")
	assert.Contains(t, stderr, "start a new run")
	assert.Equal(t, 1, strings.Count(strings.TrimSpace(stderr), "\n")+1, "one line: %q", stderr)
	assert.Equal(t, before, snapshot(t, dir), "a refused resume changes nothing")

	cfgPath := filepath.Join(dir, "config.yaml")
	cfgText := before["config.yaml"]
	require.Contains(t, cfgText, "gamma: 0.9")
	require.NoError(t, os.WriteFile(cfgPath, []byte(strings.Replace(cfgText, "gamma: 0.9", "gamma: 0.5", 1)), 0o644))
	code, _, stderr = runCmd("-resume", dir)
	assert.Equal(t, cli.ExitFailed, code)
	assert.Contains(t, stderr, "algo.gamma (0.9 → 0.5)")
	require.NoError(t, os.WriteFile(cfgPath, []byte(cfgText), 0o644))

	code, _, stderr = runCmd("-resume", dir)
	require.Equal(t, cli.ExitOK, code, stderr)
	for _, name := range litter {
		assert.NoFileExists(t, filepath.Join(dir, name), "stale temporary files are removed at the next start")
	}
	assert.FileExists(t, filepath.Join(dir, "final.safetensors"))
	report, err = os.ReadFile(filepath.Join(dir, "report.html"))
	require.NoError(t, err)
	assert.Contains(t, string(report), "greedy success", "the report keeps the final evaluation")
	assert.Contains(t, string(report), "8 held-out episodes")
}

func TestTrainErrors(t *testing.T) {
	blocker := filepath.Join(t.TempDir(), "file")
	require.NoError(t, os.WriteFile(blocker, nil, 0o644))
	corrupt := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(corrupt, "config.yaml"), []byte(tiny), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(corrupt, "checkpoint.safetensors"), []byte("\x10\x00\x00\x00\x00\x00\x00\x00{garbage}"), 0o644))
	cases := []struct {
		name string
		args []string
		code int
		want []string
	}{
		{"no config", nil, 2, []string{"no config"}},
		{"missing file", []string{"-config", "/nonexistent/x.yaml"}, 2, []string{"no such file"}},
		{"bad key", []string{"-config", writeConfig(t, "itrations: 3\n")}, 2, []string{`unknown key "itrations"`, "valid keys"}},
		{"bad set", []string{"-config", writeConfig(t, tiny), "-set", "algo.gama=1"}, 2, []string{`unknown key "gama"`, "section algo"}},
		{"set past a leaf", []string{"-config", "../../configs/rebn_guess.yaml", "-set", "algo.gamma.x=3"}, 2, []string{"algo.gamma is a value, not a section"}},
		{"set past a top leaf", []string{"-config", "../../configs/rebn_guess.yaml", "-set", "iterations.x=1"}, 2, []string{"iterations is a value, not a section"}},
		{"set into an option", []string{"-config", "../../configs/rebn_guess.yaml", "-set", "env.options.foo.bar=1"}, 2, []string{"env.options.foo is one option"}},
		{"option past int", []string{"-config", writeConfig(t, tiny), "-set", "env.options.min=18446744073709551611", "-set", "env.options.max=5", "-out", t.TempDir()}, 1,
			[]string{"option min = 18446744073709551611 is out of range"}},
		{"empty config", []string{"-config", writeConfig(t, "# nothing\n")}, 2, []string{"is empty"}},
		{"unknown env", []string{"-config", writeConfig(t, tiny+"\n"), "-set", "env.id=game:GuessTheNumbr-v0-easy", "-out", t.TempDir()}, 1, []string{"unknown env id", "GuessTheNumber-v0-easy"}},
		{"unwritable out", []string{"-config", writeConfig(t, tiny), "-out", blocker}, 1, []string{"-out"}},
		{"corrupt checkpoint", []string{"-resume", corrupt}, 1, []string{"checkpoint.safetensors"}},
		{"both", []string{"-config", "x", "-resume", "y"}, 2, []string{"not both"}},
		{"bad seed", []string{"-config", "x", "-seed", "-1"}, 2, []string{"-seed"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, _, stderr := runCmd(c.args...)
			assert.Equal(t, c.code, code, stderr)
			for _, w := range c.want {
				assert.Contains(t, stderr, w)
			}
			assert.Equal(t, 1, strings.Count(strings.TrimSpace(stderr), "\n")+1, "one clear message: %q", stderr)
		})
	}
	data, err := os.ReadFile(filepath.Join(corrupt, "checkpoint.safetensors"))
	require.NoError(t, err)
	assert.Equal(t, "\x10\x00\x00\x00\x00\x00\x00\x00{garbage}", string(data), "a failed resume leaves the checkpoint as it was")
}

func TestTrainHelpAndPrintConfig(t *testing.T) {
	code, stdout, stderr := runCmd("-h")
	assert.Equal(t, cli.ExitOK, code, stderr)
	assert.Contains(t, stdout, "-print-config")
	assert.Contains(t, stdout, "usage: train")

	// -print-config prints the resolved config (file, -set, -seed) and
	// starts nothing.
	out := t.TempDir()
	code, stdout, stderr = runCmd("-config", writeConfig(t, tiny), "-set", "algo.gamma=0.5", "-seed", "7", "-print-config", "-out", out)
	require.Equal(t, cli.ExitOK, code, stderr)
	printed, err := train.Parse([]byte(stdout), nil)
	require.NoError(t, err, stdout)
	want, err := train.LoadFile(writeConfig(t, tiny), []string{"algo.gamma=0.5", "seed=7"})
	require.NoError(t, err)
	assert.Equal(t, want, printed)
	assert.Contains(t, stdout, "beta1: 0.9", "the lower packages' settings are shown too")
	entries, err := os.ReadDir(out)
	require.NoError(t, err)
	assert.Empty(t, entries, "no run directory")

	// -seed is a whole number.
	code, _, stderr = runCmd("-config", writeConfig(t, tiny), "-seed", "x")
	assert.Equal(t, cli.ExitUsage, code)
	assert.Contains(t, stderr, "-seed")
	assert.Equal(t, 1, strings.Count(strings.TrimSpace(stderr), "\n")+1, "one line: %q", stderr)
}

// An interrupt stops the run with exit status 130 (128 + SIGINT).
func TestTrainInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errb bytes.Buffer
	code := run(ctx, []string{"-config", writeConfig(t, tiny), "-out", t.TempDir()}, &out, &errb)
	assert.Equal(t, cli.ExitInterrupted, code, errb.String())
}

// -cpuprofile writes a pprof profile (gzip-compressed protobuf) of the
// run; an unwritable path is a usage error that names the flag, before
// any run directory exists. The run's metrics carry the time split that
// scripts/bench_loop.sh reads.
func TestTrainCPUProfileAndPerfMetrics(t *testing.T) {
	out := t.TempDir()
	prof := filepath.Join(t.TempDir(), "cpu.pprof")
	code, _, stderr := runCmd("-config", writeConfig(t, tiny), "-out", out, "-cpuprofile", prof)
	require.Equal(t, cli.ExitOK, code, stderr)
	b, err := os.ReadFile(prof)
	require.NoError(t, err)
	require.Greater(t, len(b), 2)
	assert.Equal(t, []byte{0x1f, 0x8b}, b[:2], "a pprof profile is gzip-compressed")
	csv, err := os.ReadFile(filepath.Join(out, "tiny", "metrics.csv"))
	require.NoError(t, err)
	header := strings.SplitN(string(csv), "\n", 2)[0]
	for _, col := range []string{"perf/rollout_s", "perf/update_s", "perf/reference_s", "perf/eval_s", "perf/trained_tokens"} {
		assert.Contains(t, strings.Split(header, ","), col)
	}

	out2 := t.TempDir()
	code, _, stderr = runCmd("-config", writeConfig(t, tiny), "-out", out2, "-cpuprofile", filepath.Join(out2, "no", "such", "dir", "p"))
	assert.Equal(t, cli.ExitUsage, code)
	assert.Contains(t, stderr, "-cpuprofile")
	assert.NoDirExists(t, filepath.Join(out2, "tiny"))
}

// Nucleus sampling in training is printed as a caution before the run.
func TestTrainCautionsTopP(t *testing.T) {
	code, stdout, stderr := runCmd("-config", writeConfig(t, tiny), "-set", "sample.top_p=0.9", "-out", t.TempDir())
	require.Equal(t, cli.ExitOK, code, stderr)
	i := strings.Index(stdout, "caution: sample.top_p = 0.9:")
	require.GreaterOrEqual(t, i, 0, stdout)
	assert.Less(t, i, strings.Index(stdout, "done in "), "printed before the run ends")
}

// -memprofile writes a heap profile (gzip-compressed protobuf) after the
// run's last iteration; an unwritable path is a usage error that names
// the flag.
func TestTrainMemProfile(t *testing.T) {
	out := t.TempDir()
	prof := filepath.Join(t.TempDir(), "heap.pprof")
	code, _, stderr := runCmd("-config", writeConfig(t, tiny), "-out", out, "-memprofile", prof)
	require.Equal(t, cli.ExitOK, code, stderr)
	b, err := os.ReadFile(prof)
	require.NoError(t, err)
	require.Greater(t, len(b), 2)
	assert.Equal(t, []byte{0x1f, 0x8b}, b[:2], "a pprof profile is gzip-compressed")

	code, _, stderr = runCmd("-config", writeConfig(t, tiny), "-out", t.TempDir(), "-memprofile", filepath.Join(out, "no", "such", "dir", "p"))
	assert.Equal(t, cli.ExitUsage, code)
	assert.Contains(t, stderr, "-memprofile")
}
