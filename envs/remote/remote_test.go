package remote_test

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/builtin"
	"github.com/gemgo/gemgo/envs/envtest"
	"github.com/gemgo/gemgo/envs/mcptask"
	"github.com/gemgo/gemgo/envs/remote"
	"github.com/gemgo/gemgo/envs/remote/client"
)

// serve starts a server of the built-in envs on a loopback port; it stops
// with the test.
func serve(t testing.TB, cfg remote.Config) (*remote.Server, string) {
	t.Helper()
	srv, err := remote.NewServer(builtin.Registry(), cfg)
	require.NoError(t, err)
	hs := httptest.NewServer(srv)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		assert.NoError(t, srv.Shutdown(ctx))
		hs.Close()
	})
	return srv, "ws://" + strings.TrimPrefix(hs.URL, "http://")
}

// setup says how the conformance test makes ids that need a data file or
// whose steps start python3 (as envs/builtin's conformance test does).
func setup(id string) (opts []envs.Option, slow bool) {
	switch {
	case id == "code:jsonl":
		return []envs.Option{envs.With("max_tests", 1), envs.With("timeout", 20),
			envs.With("path", filepath.Join("..", "code", "data", "sample.jsonl"))}, true
	case strings.HasPrefix(id, "code:"):
		return []envs.Option{envs.With("max_tests", 1), envs.With("timeout", 20)}, true
	case id == "math:jsonl":
		return []envs.Option{envs.With("path", filepath.Join("..", "mathtask", "data", "sample.jsonl"))}, false
	case id == "qa:jsonl":
		return []envs.Option{envs.With("path", filepath.Join("..", "qa", "data", "sample.jsonl"))}, false
	case id == "terminal:dir": // as envs/builtin: a task scored by run-tests.sh
		return []envs.Option{envs.With("max_turns", 3), envs.With("command_timeout", 20),
			envs.With("path", filepath.Join("..", "terminal", "tasks", "fix-permissions"))}, true
	case strings.HasPrefix(id, "eval:"): // the benchmarks read imported sets: envs/bench's fixtures
		return []envs.Option{envs.With("data_dir", filepath.Join("..", "bench", "testdata", "data"))}, false
	case id == "terminal:sample":
		return []envs.Option{envs.With("max_turns", 3), envs.With("command_timeout", 20), envs.With("task", "fix-permissions")}, true
	case id == "mcp:dir": // as envs/builtin
		return []envs.Option{envs.With("max_turns", 3), envs.With("path", filepath.Join("..", "mcptask", "tasks", "files", "csv-total"))}, true
	case id == "mcp:files-sample":
		return []envs.Option{envs.With("max_turns", 3), envs.With("task", "csv-total")}, true
	case id == "mcp:postgres-sample":
		return []envs.Option{envs.With("max_turns", 3), envs.With("task", "top-customers")}, true
	}
	return nil, false
}

// TestRemoteConforms runs the conformance suite on every built-in id played
// over a live loopback server. envs/builtin checks each env's own rules at
// full length; here the point is that the wire changes nothing (Info types,
// raw bytes, megabyte actions, the caller's RNG in SampleAction), so fewer
// episodes suffice.
func TestRemoteConforms(t *testing.T) {
	// The jsonl envs read the data file a client names, the eval envs the
	// data directory it names, and the code envs' tests get 20 s (a loaded
	// machine): an operator allows all three.
	_, url := serve(t, remote.Config{AllowOptions: []string{"path", "data_dir"}, OptionCaps: map[string]float64{"timeout": 20}})
	reg := builtin.Registry()
	ids := make(chan string)
	var wg sync.WaitGroup
	// The checks wait on loopback round trips more than they compute: eight
	// at a time (t.Run may be called from several goroutines) rather than
	// go test's -parallel, which is the number of cores.
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for id := range ids {
				t.Run(id, func(t *testing.T) { checkRemote(t, url, id) })
			}
		}()
	}
	for _, id := range reg.IDs() {
		ids <- id
	}
	close(ids)
	wg.Wait()
}

func checkRemote(t *testing.T, url, id string) {
	opts, slow := setup(id)
	check := []envtest.Option{envtest.Episodes(4), envtest.Mutations(8)}
	if slow {
		if testing.Short() {
			t.Skip("-short: this env starts python3 for every step")
		}
		if !strings.HasPrefix(id, "mcp:") {
			needPython(t)
		}
		check = []envtest.Option{envtest.Episodes(2), envtest.Mutations(4)}
	}

	if strings.HasPrefix(id, "terminal:") {
		check = append(check, envtest.FreeText()) // replies are <bash>/<finish> tags, not \boxed{}
	}
	if strings.HasPrefix(id, "mcp:") {
		if id == "mcp:dir" {
			t.Skip("mcp:dir serves mcp:files-sample's service from another directory: checked over the wire there, in-process in envs/builtin")
		}
		// Each episode starts a sandboxed server or a database: one episode
		// shows the wire changes nothing; envs/builtin plays them at length.
		check = []envtest.Option{envtest.Episodes(1), envtest.Mutations(2), envtest.FreeText()} // replies are tool calls or a free answer
		if err := mcpUsable(id); err != nil {
			t.Skip(err)
		}
		if id == "mcp:postgres-sample" { // one cluster for every session's env
			release, err := mcptask.HoldCluster()
			require.NoError(t, err)
			defer release()
		}
	}
	envtest.CheckEnv(t, func() (envs.Env, error) {
		return client.Dial(context.Background(), url, id, opts...)
	}, check...)
}

// mcpUsable says why the mcp env id cannot run here; nil when it can.
func mcpUsable(id string) error {
	if id == "mcp:postgres-sample" {
		return mcptask.PostgresUsable()
	}
	return mcptask.FilesUsable()
}

// The remote env plays exactly what the env plays in-process: the same
// observations, rewards, flags, Info (with its Go types) and sampled
// actions from the same RNG.
func TestRemoteEqualsInProcess(t *testing.T) {
	_, url := serve(t, remote.Config{})
	reg := builtin.Registry()
	for _, id := range []string{"game:GuessTheNumber-v0-easy", "game:Mastermind-v0-hard", "game:Sudoku-v0-easy", "game:Wordle-v0-easy", "math:Arith-v0"} {
		t.Run(id, func(t *testing.T) {
			local, err := reg.Make(id)
			if err != nil {
				t.Skipf("%s: %v", id, err)
			}
			far, err := client.Dial(context.Background(), url, id)
			require.NoError(t, err)
			defer far.(interface{ Close() error }).Close()
			ls, lok := envs.SamplerOf(local)
			fs, fok := envs.SamplerOf(far)
			require.Equal(t, lok, fok, "the remote env samples exactly when the env does")
			if !lok {
				return
			}
			assert.Equal(t, local.(envs.Describer).Description(), far.(envs.Describer).Description())
			rl, rf := newRand(3), newRand(3)
			for seed := range uint64(5) {
				lo, li, err := local.Reset(seed)
				require.NoError(t, err)
				fo, fi, err := far.Reset(seed)
				require.NoError(t, err)
				require.Equal(t, lo, fo)
				require.Equal(t, li, fi)
				for range 50 {
					la, fa := ls.SampleAction(rl), fs.SampleAction(rf)
					require.Equal(t, la, fa, "the same RNG draws the same action")
					lst, err := local.Step(la)
					require.NoError(t, err)
					fst, err := far.Step(fa)
					require.NoError(t, err)
					require.Equal(t, lst, fst)
					if lst.Done() {
						break
					}
				}
			}
			assert.Equal(t, rl.Uint64(), rf.Uint64(), "the remote sampler drew as many numbers as the local one")
		})
	}
}
