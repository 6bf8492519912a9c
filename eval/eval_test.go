package eval_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/gemgo/gemgo/chat"
	"github.com/gemgo/gemgo/chat/chattest"
	"github.com/gemgo/gemgo/envs/builtin"
	"github.com/gemgo/gemgo/eval"
	"github.com/gemgo/gemgo/policy"
	"github.com/gemgo/gemgo/serve"
	"github.com/stretchr/testify/require"
)

func baseConfig(episodes int, policies ...string) eval.Config {
	cfg := eval.DefaultConfig()
	cfg.Policies, cfg.Envs, cfg.EnvOptions, cfg.Episodes = policies, []string{chattest.EnvID}, chattest.Options(), episodes
	cfg.Concurrency, cfg.Resamples = 8, 200
	return cfg
}

func open(t *testing.T, cfg eval.Config) []eval.Named {
	t.Helper()
	var out []eval.Named
	for _, spec := range cfg.Policies {
		op, err := eval.OpenPolicy(spec, cfg, eval.DefaultOracles(), "")
		require.NoError(t, err, spec)
		if op.Closer != nil {
			t.Cleanup(func() { op.Closer.Close() })
		}
		out = append(out, op.Named(spec))
	}
	return out
}

func records(t *testing.T, dir string) []eval.Record {
	t.Helper()
	recs, err := eval.ReadResults(filepath.Join(dir, eval.ResultsFile))
	require.NoError(t, err)
	return recs
}

// A checkpoint evaluated through cmd/serve's server over loopback HTTP,
// with the OpenAI client, plays exactly the episodes it plays in process.
func TestServedCheckpointEqualsInProcess(t *testing.T) {
	ck := chattest.Checkpoint(t, chat.HistoryObservations)
	path := filepath.Join(t.TempDir(), "ck.safetensors")
	require.NoError(t, policy.SaveCheckpoint(path, ck))
	set, err := chat.CheckpointSettings(ck)
	require.NoError(t, err)
	eng, err := chat.NewEngine(ck, chat.EngineConfig{Name: "tiny", Settings: set})
	require.NoError(t, err)
	defer eng.Close()
	srv := httptest.NewServer((&serve.Server{Model: eng, Name: "tiny"}).Handler())
	defer srv.Close()
	remote := "tiny@" + srv.URL + "/v1"

	cfg := baseConfig(24, path, remote)
	dir := t.TempDir()
	md, err := eval.Run(context.Background(), cfg, open(t, cfg), eval.Options{Dir: dir, Registry: builtin.Registry()})
	require.NoError(t, err)
	require.True(t, md.Complete)
	got := map[string]map[uint64]eval.Record{}
	for _, r := range records(t, dir) {
		require.Empty(t, r.Error)
		if got[r.Policy] == nil {
			got[r.Policy] = map[uint64]eval.Record{}
		}
		got[r.Policy][r.Seed] = r
	}
	long := 0
	for seed, a := range got[path] {
		b := got[remote][seed]
		require.Equal(t, a.Messages, b.Messages, "seed %d", seed)
		require.Equal(t, a.Rewards, b.Rewards, "seed %d", seed)
		require.Equal(t, a.FinishReasons, b.FinishReasons, "seed %d", seed)
		require.Equal(t, a.PromptTokens, b.PromptTokens, "seed %d: usage is reported the same", seed)
		if a.Turns > 1 {
			long++
		}
	}
	require.Len(t, got[remote], 24)
	require.Greater(t, long, 5, "episodes must last several turns for the comparison to mean something")
	require.Equal(t, md.Aggregates[0].Success, md.Aggregates[1].Success)
}

// fakeReply is a chat completion that guesses n.
func fakeReply(w http.ResponseWriter, n int) {
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, `{"id":"x","object":"chat.completion","created":1,"model":"fake","choices":[{"index":0,"message":{"role":"assistant","content":"\\boxed{%d}"},"finish_reason":"stop"}],"usage":{"prompt_tokens":10,"completion_tokens":3,"total_tokens":13}}`, n)
}

type fake struct {
	mu    sync.Mutex
	calls []time.Time
	h     func(call int, w http.ResponseWriter, r *http.Request)
}

func (f *fake) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	f.calls = append(f.calls, time.Now())
	n := len(f.calls)
	f.mu.Unlock()
	f.h(n, w, r)
}

func runFake(t *testing.T, f *fake, timeout time.Duration, retries int) (eval.Record, time.Duration) {
	t.Helper()
	srv := httptest.NewServer(f)
	defer srv.Close()
	cfg := baseConfig(1, "fake@"+srv.URL+"/v1")
	cfg.Timeout, cfg.Retries = timeout, retries
	dir := t.TempDir()
	start := time.Now()
	_, err := eval.Run(context.Background(), cfg, open(t, cfg), eval.Options{Dir: dir, Registry: builtin.Registry()})
	require.NoError(t, err, "a failing server never fails the run")
	recs := records(t, dir)
	require.Len(t, recs, 1)
	return recs[0], time.Since(start)
}

func TestFaultsOfTheServer(t *testing.T) {
	t.Run("429 with Retry-After is honoured", func(t *testing.T) {
		f := &fake{h: func(call int, w http.ResponseWriter, _ *http.Request) {
			if call == 1 {
				w.Header().Set("Retry-After", "1")
				w.WriteHeader(http.StatusTooManyRequests)
				fmt.Fprint(w, `{"error":{"message":"slow down","type":"rate_limit_error","param":null,"code":"rate_limit_exceeded"}}`)
				return
			}
			fakeReply(w, 5)
		}}
		rec, _ := runFake(t, f, 5*time.Second, 2)
		require.Empty(t, rec.Error)
		require.GreaterOrEqual(t, f.calls[1].Sub(f.calls[0]), 950*time.Millisecond, "the retry waits the Retry-After second")
		require.Equal(t, 10*rec.Turns, rec.PromptTokens, "token usage is recorded per turn")
	})
	t.Run("500 is retried", func(t *testing.T) {
		f := &fake{h: func(call int, w http.ResponseWriter, _ *http.Request) {
			if call <= 2 {
				w.WriteHeader(http.StatusInternalServerError)
				fmt.Fprint(w, `{"error":{"message":"boom","type":"server_error","param":null,"code":null}}`)
				return
			}
			fakeReply(w, 5)
		}}
		rec, _ := runFake(t, f, 5*time.Second, 2)
		require.Empty(t, rec.Error)
		require.GreaterOrEqual(t, len(f.calls), 3)
	})
	t.Run("500 after the retries is the episode's error", func(t *testing.T) {
		f := &fake{h: func(_ int, w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusBadGateway) }}
		rec, _ := runFake(t, f, 5*time.Second, 1)
		require.Contains(t, rec.Error, "502")
		require.Len(t, f.calls, 2)
	})
	t.Run("garbled JSON is the episode's error", func(t *testing.T) {
		f := &fake{h: func(_ int, w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"id":"x","choices":[{"message":`)
		}}
		rec, _ := runFake(t, f, 5*time.Second, 2)
		require.NotEmpty(t, rec.Error)
		require.Zero(t, rec.Turns)
	})
	t.Run("a hung server is the episode's error within the timeout", func(t *testing.T) {
		f := &fake{h: func(_ int, _ http.ResponseWriter, r *http.Request) {
			select {
			case <-r.Context().Done():
			case <-time.After(2 * time.Second):
			}
		}}
		rec, took := runFake(t, f, 200*time.Millisecond, 1)
		require.NotEmpty(t, rec.Error)
		require.Less(t, took, 1500*time.Millisecond, "the 200 ms timeout ends the episode, not the server")
	})
}

// A killed run loses no finished episode, and the rerun duplicates none.
func TestKill9ThenRerun(t *testing.T) {
	if os.Getenv("GEMGO_EVAL_KILL_DIR") != "" {
		t.Skip("helper")
	}
	dir := t.TempDir()
	cmd := helperCommand(t, dir)
	require.NoError(t, cmd.Start())
	path := filepath.Join(dir, eval.ResultsFile)
	deadline := time.Now().Add(60 * time.Second)
	for {
		recs, _ := eval.ReadResults(path)
		if len(recs) >= 30 {
			break
		}
		require.True(t, time.Now().Before(deadline), "the helper wrote no results")
		time.Sleep(20 * time.Millisecond)
	}
	require.NoError(t, cmd.Process.Kill()) // SIGKILL
	_ = cmd.Wait()
	before := records(t, dir)
	require.Less(t, len(before), killEpisodes, "the kill must come before the end")

	cfg := killConfig()
	md, err := eval.Run(context.Background(), cfg, []eval.Named{{Name: "slow", Policy: slowRandom{0}}}, eval.Options{Dir: dir, Registry: builtin.Registry()})
	require.NoError(t, err)
	require.True(t, md.Complete)
	require.Equal(t, killEpisodes-len(before), md.Played, "the rerun plays only what is missing")
	after := records(t, dir)
	require.Equal(t, before, after[:len(before)], "finished episodes are kept as they were")
	seen := map[eval.Key]bool{}
	for _, r := range after {
		require.False(t, seen[r.Key], "episode %v twice", r.Key)
		seen[r.Key] = true
	}
	require.Len(t, seen, killEpisodes)
}

const killEpisodes = 400

func killConfig() eval.Config {
	cfg := baseConfig(killEpisodes, "slow")
	cfg.Concurrency = 4
	return cfg
}

// TestKillHelper is the process TestKill9ThenRerun kills and
// TestSecondRunIsRefused runs beside.
func TestKillHelper(t *testing.T) {
	dir := os.Getenv("GEMGO_EVAL_KILL_DIR")
	if dir == "" {
		t.Skip("run by TestKill9ThenRerun")
	}
	_, err := eval.Run(context.Background(), killConfig(), []eval.Named{{Name: "slow", Policy: slowRandom{5 * time.Millisecond}}}, eval.Options{Dir: dir, Registry: builtin.Registry()})
	if err != nil {
		t.Fatal(err) // an exit status for TestSecondRunIsRefused (TestKill9ThenRerun kills it first)
	}
}

func TestRerunWithOtherSettingsIsRefused(t *testing.T) {
	dir := t.TempDir()
	cfg := baseConfig(3, "random")
	_, err := eval.Run(context.Background(), cfg, open(t, cfg), eval.Options{Dir: dir, Registry: builtin.Registry()})
	require.NoError(t, err)
	cfg.EnvOptions = map[string]any{"style": "gem"}
	_, err = eval.Run(context.Background(), cfg, open(t, cfg), eval.Options{Dir: dir, Registry: builtin.Registry()})
	require.ErrorContains(t, err, "other settings")
	// more episodes under the same settings add to the directory
	cfg = baseConfig(5, "random", "oracle")
	md, err := eval.Run(context.Background(), cfg, open(t, cfg), eval.Options{Dir: dir, Registry: builtin.Registry()})
	require.NoError(t, err)
	require.Equal(t, 2+5, md.Played)
	var meta eval.Metadata
	b, err := os.ReadFile(filepath.Join(dir, eval.MetadataFile))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &meta))
	require.Equal(t, md.Hash, meta.Hash)
	require.Equal(t, 1.0, meta.Aggregates[1].Success.Mean, "the oracle solves every game")
	require.FileExists(t, filepath.Join(dir, eval.ReportFile))
}
