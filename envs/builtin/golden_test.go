package builtin_test

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/builtin"
	"github.com/gemgo/gemgo/envs/mcptask"
	"github.com/gemgo/gemgo/sandbox"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden transcripts in testdata/golden")

// Golden episodes: seed goldenSeed, actions drawn with the env's
// SampleAction from PCG(goldenSeed, 2), at most goldenSteps of them; an
// episode still running after that gets one answer without a \boxed{}, so
// that every transcript also shows the env's format-error text.
const (
	goldenSeed  = 1
	goldenSteps = 5
	goldenDir   = "testdata/golden"
)

// unstableInfo are info keys whose values depend on the machine, not on
// the seed and the actions (the code env's sandbox kind).
var unstableInfo = map[string]bool{"sandbox": true}

// TestGolden plays one seeded episode of every built-in id, in the default
// style and, where the env has one, the brief style, and compares the
// transcript (observations, actions, rewards, flags and the scalar info
// values) with testdata/golden/<id>.txt. A change to any prompt, feedback
// text or reward shows there as a diff; after checking it, regenerate the
// files with
//
//	go test ./envs/builtin -run Golden -update
func TestGolden(t *testing.T) {
	reg := builtin.Registry()
	ids := reg.IDs()
	pyErr := pythonUsable()
	want := map[string]bool{}
	for _, id := range ids {
		file := goldenFile(id)
		want[file] = true
		t.Run(id, func(t *testing.T) {
			if strings.HasPrefix(id, "code:") && pyErr != nil {
				t.Skipf("the code envs run real python3 programs: %v", pyErr)
			}
			if strings.HasPrefix(id, "terminal:") {
				if err := pytestUsable(); err != nil {
					t.Skipf("the terminal envs score with pytest: %v", err)
				}
			}
			if err := mcpUsable(id); err != nil {
				t.Skip(err)
			}
			opts, _, _ := builtinSetup(id)
			got := episode(t, id, reg, opts, "")
			brief := append(append([]envs.Option(nil), opts...), envs.With("style", "brief"))
			if _, err := reg.Make(id, brief...); err == nil {
				got += "\n" + episode(t, id, reg, brief, "brief")
			}
			path := filepath.Join(goldenDir, file)
			if *update {
				require.NoError(t, os.MkdirAll(goldenDir, 0o755))
				require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
				return
			}
			b, err := os.ReadFile(path)
			require.NoError(t, err, "no golden transcript for %s: run go test ./envs/builtin -run Golden -update", id)
			require.Equal(t, string(b), got, "%s: the transcript changed; if that is intended, run go test ./envs/builtin -run Golden -update and review the diff", id)
		})
	}
	// A golden file of an id that is gone is stale.
	entries, err := os.ReadDir(goldenDir)
	require.NoError(t, err)
	for _, e := range entries {
		if want[e.Name()] {
			continue
		}
		if *update {
			require.NoError(t, os.Remove(filepath.Join(goldenDir, e.Name())))
			continue
		}
		t.Errorf("%s/%s belongs to no registered id: remove it (go test ./envs/builtin -run Golden -update)", goldenDir, e.Name())
	}
}

// goldenFile is the transcript's file name: the id with every character
// outside [A-Za-z0-9.-] replaced by '_' (game:Sudoku-v0-easy ->
// game_Sudoku-v0-easy.txt).
func goldenFile(id string) string {
	b := []byte(id)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-') {
			b[i] = '_'
		}
	}
	return string(b) + ".txt"
}

// episode makes id with opts and writes its golden episode as text;
// style names the style it was made in ("" for the default).
func episode(t *testing.T, id string, reg *envs.Registry, opts []envs.Option, style string) string {
	t.Helper()
	env, err := reg.Make(id, opts...)
	require.NoError(t, err)
	defer func() { require.NoError(t, envs.Close(env)) }()
	if style == "" {
		style = "default"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# %s, %s style: seed %d, SampleAction draws from PCG(%d, 2), at most %d; then an answer without \\boxed{}\n",
		id, style, goldenSeed, goldenSeed, goldenSteps)
	obs, info, err := env.Reset(goldenSeed)
	require.NoError(t, err)
	b.WriteString("\n== reset\n")
	writeInfo(&b, info)
	writeText(&b, "obs", obs)
	sampler, _ := env.(envs.ActionSampler)
	r := rand.New(rand.NewPCG(goldenSeed, 2))
	for turn := 1; ; turn++ {
		action := "I am not sure."
		if turn <= goldenSteps && sampler != nil {
			action = sampler.SampleAction(r)
		}
		st, err := env.Step(action)
		require.NoError(t, err)
		fmt.Fprintf(&b, "\n== step %d\n", turn)
		writeText(&b, "action", action)
		fmt.Fprintf(&b, "reward: %s  terminated: %t  truncated: %t\n", formatFloat(st.Reward), st.Terminated, st.Truncated)
		writeInfo(&b, st.Info)
		writeText(&b, "obs", st.Obs)
		if st.Done() {
			return b.String()
		}
		require.LessOrEqual(t, turn, goldenSteps, "%s: the answer without \\boxed{} must end the episode", id)
	}
}

// writeText writes a labelled text: on the label's line when it is one
// line, else below it with each line after "| " (a bare "|" for an empty
// line), so that the text, trailing spaces included, reads back exactly.
func writeText(b *strings.Builder, label, s string) {
	if !strings.Contains(s, "\n") {
		fmt.Fprintf(b, "%s: %s\n", label, s)
		return
	}
	fmt.Fprintf(b, "%s:\n", label)
	for _, line := range strings.Split(s, "\n") {
		if line == "" {
			b.WriteString("|\n")
			continue
		}
		b.WriteString("| " + line + "\n")
	}
}

// writeInfo writes the scalar info values, sorted by key; other values
// (lists, maps) and the unstable keys are left out.
func writeInfo(b *strings.Builder, info envs.Info) {
	keys := make([]string, 0, len(info))
	for k := range info {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	b.WriteString("info:")
	for _, k := range keys {
		if unstableInfo[k] {
			continue
		}
		var v string
		switch x := info[k].(type) {
		case bool:
			v = strconv.FormatBool(x)
		case int:
			v = strconv.Itoa(x)
		case float64:
			v = formatFloat(x)
		case string:
			v = strconv.Quote(x)
		default:
			continue
		}
		fmt.Fprintf(b, " %s=%s", k, v)
	}
	b.WriteByte('\n')
}

// formatFloat keeps 10 significant digits: exact for the rewards' simple
// fractions, and deaf to last-bit differences between machines.
func formatFloat(x float64) string { return strconv.FormatFloat(x, 'g', 10, 64) }

// mcpUsable says why the mcp env id cannot run here (its MCP server or
// PostgreSQL is not installed); nil when it can, or id is not an mcp env.
func mcpUsable(id string) error {
	switch id {
	case "mcp:files-sample", "mcp:dir":
		return mcptask.FilesUsable()
	case "mcp:postgres-sample":
		return mcptask.PostgresUsable()
	}
	return nil
}

// pytestUsable says why the terminal envs cannot score here (no python3
// the sandbox can start that imports pytest); nil when they can.
func pytestUsable() error {
	env, err := builtin.Registry().Make("terminal:sample", envs.With("task", "word-count"))
	if err != nil {
		return err
	}
	return envs.Close(env)
}

// pythonUsable says why the code envs cannot run their solutions here: no
// python3 the sandbox can start (the one they pick, sandbox.PythonFor);
// nil when they can.
func pythonUsable() error {
	_, _, err := sandbox.PythonFor(sandbox.DefaultPython, sandbox.Detect())
	return err
}
