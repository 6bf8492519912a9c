package builtin_test

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/builtin"
	"github.com/gemgo/gemgo/envs/envtest"
	"github.com/gemgo/gemgo/envs/mcptask"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// builtinSetup says how the conformance test makes ids that need options
// (a data file) or whose steps are expensive (code runs python3).
func builtinSetup(id string) (opts []envs.Option, check []envtest.Option, slow bool) {
	if strings.HasPrefix(id, "code:") {
		// Every step with a code block starts python3: few episodes, one test.
		opts = append(opts, envs.With("max_tests", 1), envs.With("timeout", 20))
		if id == "code:jsonl" {
			opts = append(opts, envs.With("path", filepath.Join("..", "code", "data", "sample.jsonl")))
		}
		return opts, []envtest.Option{envtest.Episodes(2), envtest.Mutations(4)}, true
	}
	if strings.HasPrefix(id, "terminal:") {
		// Every command starts a sandboxed bash: short episodes, few of
		// them, on a task scored by run-tests.sh (a pytest run costs about
		// a second; envs/terminal's own tests play every task).
		opts = append(opts, envs.With("max_turns", 3), envs.With("command_timeout", 20))
		if id == "terminal:dir" {
			opts = append(opts, envs.With("path", filepath.Join("..", "terminal", "tasks", "fix-permissions")))
		} else {
			opts = append(opts, envs.With("task", "fix-permissions"))
		}
		return opts, []envtest.Option{envtest.Episodes(2), envtest.Mutations(4), envtest.FreeText()}, true
	}
	if strings.HasPrefix(id, "mcp:") {
		// Every episode starts an MCP server (node in the sandbox, or a
		// database): short episodes, few of them (envs/mcptask's own
		// tests play every task).
		opts = append(opts, envs.With("max_turns", 3))
		switch id {
		case "mcp:dir":
			opts = append(opts, envs.With("path", filepath.Join("..", "mcptask", "tasks", "files", "csv-total")))
		case "mcp:files-sample":
			opts = append(opts, envs.With("task", "csv-total"))
		case "mcp:postgres-sample":
			opts = append(opts, envs.With("task", "top-customers"))
		}
		return opts, []envtest.Option{envtest.Episodes(2), envtest.Mutations(4), envtest.FreeText()}, true
	}
	if strings.HasPrefix(id, "eval:") { // the benchmarks read imported sets: the fixtures
		return []envs.Option{envs.With("data_dir", filepath.Join("..", "bench", "testdata", "data"))}, nil, false
	}
	switch id { // dataset loaders need a file: the families' own samples
	case "math:jsonl":
		return []envs.Option{envs.With("path", filepath.Join("..", "mathtask", "data", "sample.jsonl"))}, nil, false
	case "qa:jsonl":
		return []envs.Option{envs.With("path", filepath.Join("..", "qa", "data", "sample.jsonl"))}, nil, false
	}
	return nil, nil, false
}

// TestBuiltinsConform runs the conformance suite over every built-in id, in
// the default style and, where the env has one, the brief style. This is
// the one place it runs: the env packages' own tests check their rules.
// Games play the full number of random episodes in both styles; a task's
// brief style differs only in its text, so it gets fewer.
func TestBuiltinsConform(t *testing.T) {
	reg := builtin.Registry()
	for _, id := range reg.IDs() {
		opts, check, slow := builtinSetup(id)
		t.Run(id, func(t *testing.T) {
			t.Parallel()
			if slow && testing.Short() {
				t.Skip("-short: this env starts external processes")
			}
			if strings.HasPrefix(id, "code:") {
				if err := pythonUsable(); err != nil {
					t.Skipf("the code envs run real python3 programs: %v", err)
				}
			}
			if strings.HasPrefix(id, "terminal:") {
				if err := pytestUsable(); err != nil {
					t.Skipf("the terminal envs score with pytest: %v", err)
				}
			}
			if err := mcpUsable(id); err != nil {
				t.Skip(err)
			}
			if id == "mcp:postgres-sample" { // one cluster for all the envs CheckEnv makes
				release, err := mcptask.HoldCluster()
				require.NoError(t, err)
				defer release()
			}
			envtest.CheckEnv(t, func() (envs.Env, error) { return reg.Make(id, opts...) }, check...)

			if slow {
				return // one pass is enough for envs that start processes
			}
			brief := append(append([]envs.Option(nil), opts...), envs.With("style", "brief"))
			env, err := reg.Make(id, brief...)
			if err != nil {
				require.ErrorContains(t, err, "unknown option style", "an env either has the brief style or no style option")
				return
			}
			require.NoError(t, envs.Close(env))
			var briefCheck []envtest.Option
			if !strings.HasPrefix(id, "game:") {
				briefCheck = append(briefCheck, envtest.Episodes(8))
			}
			envtest.CheckEnv(t, func() (envs.Env, error) { return reg.Make(id, brief...) }, briefCheck...)
		})
	}
}

var idForm = regexp.MustCompile(`^[a-z][a-z0-9]*:[A-Za-z0-9_.]+(-v[0-9]+)?(-[a-z0-9]+)?$`)

func TestBuiltinIDs(t *testing.T) {
	reg := builtin.Registry()
	levels := map[string][]string{} // game stem -> levels
	for _, id := range reg.IDs() {
		assert.Regexp(t, idForm, id, "ids follow GEM's category:Name-v0-level")
		desc := reg.Description(id)
		assert.NotEmpty(t, desc, "%s: play -list shows a one-line description", id)
		assert.NotContains(t, desc, "\n", "%s: the description is one line", id)
		if stem, level, ok := strings.Cut(id, "-v0-"); ok && strings.HasPrefix(id, "game:") {
			levels[stem] = append(levels[stem], level)
		}
	}
	for stem, ls := range levels {
		for _, want := range []string{"easy", "hard", "random"} {
			assert.Contains(t, ls, want, "%s has a -%s level", stem, want)
		}
	}
}

func TestBuiltinsIsFreshEachCall(t *testing.T) {
	a, b := builtin.Registry(), builtin.Registry()
	require.NoError(t, a.Register("test:Mine-v0", func(*envs.Options) (envs.Env, error) { return envtest.NewToy(3), nil }))
	assert.Contains(t, a.IDs(), "test:Mine-v0")
	assert.NotContains(t, b.IDs(), "test:Mine-v0", "registering in one registry leaves the others alone")
	assert.Len(t, a.IDs(), len(b.IDs())+1)
}

func TestBuiltinsUnknownIDSuggests(t *testing.T) {
	reg := builtin.Registry()
	if reg.Description("game:GuessTheNumber-v0-hard") == "" {
		t.Skip("GuessTheNumber is not registered yet")
	}
	_, err := reg.Make("game:GuessTheNumber-v0-hardd")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "did you mean game:GuessTheNumber-v0-hard,")
	_, err = reg.Make("game:GuessTheNumber-v0-easy", envs.With("no_such_option", 1))
	require.ErrorContains(t, err, "unknown option no_such_option")
}
