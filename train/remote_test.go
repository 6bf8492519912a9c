package train

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"

	"github.com/gemgo/gemgo/envs/builtin"
	"github.com/gemgo/gemgo/envs/remote"
	"github.com/gemgo/gemgo/internal/nginxtest"
	"github.com/gemgo/gemgo/policy"
)

// envServer serves the built-in envs on a loopback port until the test
// ends; it returns the server and host:port. When sessions is not nil,
// each WebSocket session opened there appends id to it.
func envServer(t *testing.T, id int, sessions *[]int, mu *sync.Mutex) (*remote.Server, string) {
	t.Helper()
	srv, err := remote.NewServer(builtin.Registry(), remote.Config{})
	require.NoError(t, err)
	h := http.Handler(srv)
	if sessions != nil {
		h = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if strings.HasSuffix(r.URL.Path, "/ws") {
				mu.Lock()
				*sessions = append(*sessions, id)
				mu.Unlock()
			}
			srv.ServeHTTP(w, r)
		})
	}
	hs := httptest.NewServer(h)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		assert.NoError(t, srv.Shutdown(ctx))
		hs.Close()
	})
	return srv, strings.TrimPrefix(hs.URL, "http://")
}

// Training on an env played over cmd/envserver's protocol gives exactly
// the numbers of training on it in-process: the vocabulary and the warm-up
// come from the same random play (the server's SampleAction draws from the
// run's RNG), and every step returns the same text, reward and Info. So
// does training whose envs are spread over two servers, and training
// through nginx in front of three (skipped where nginx is not installed).
func TestRemoteEnvTrainsLikeInProcess(t *testing.T) {
	cfg := tinyConfig("rebn")
	cfg.Iterations = 3
	local := &recordObserver{}
	dirA := filepath.Join(t.TempDir(), "local")
	resA, err := Run(context.Background(), cfg, builtin.Registry(), Options{Dir: dirA, Observer: local})
	require.NoError(t, err)
	a, err := policy.LoadCheckpoint(filepath.Join(dirA, FinalFile))
	require.NoError(t, err)

	var mu sync.Mutex
	var sessions []int
	srv1, addr1 := envServer(t, 1, &sessions, &mu)
	srv2, addr2 := envServer(t, 2, &sessions, &mu)
	for _, tc := range []struct {
		name    string
		remotes func(t *testing.T) Remotes
		servers []*remote.Server
	}{
		{"one server", func(*testing.T) Remotes { return Remotes{"ws://" + addr1} }, []*remote.Server{srv1}},
		{"two servers", func(*testing.T) Remotes { return Remotes{"ws://" + addr1, "http://" + addr2} }, []*remote.Server{srv1, srv2}},
		{"nginx", func(t *testing.T) Remotes {
			var addrs []string
			for i := range 3 {
				_, a := envServer(t, 10+i, nil, nil)
				addrs = append(addrs, a)
			}
			return Remotes{"ws://" + nginxtest.Start(t, addrs)}
		}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mu.Lock()
			sessions = nil
			mu.Unlock()
			cfg.Env.Remote = tc.remotes(t)
			far := &recordObserver{}
			dirB := filepath.Join(t.TempDir(), "remote")
			resB, err := Run(context.Background(), cfg, builtin.Registry(), Options{Dir: dirB, Observer: far})
			require.NoError(t, err)

			require.Len(t, far.iters, 3)
			assert.Equal(t, stable(local.iters), stable(far.iters), "every metric but timings")
			assert.Equal(t, local.evals, far.evals)
			assert.Equal(t, resA.EnvSteps, resB.EnvSteps)
			assert.Equal(t, resA.FinalEval, resB.FinalEval)
			b, err := policy.LoadCheckpoint(filepath.Join(dirB, FinalFile))
			require.NoError(t, err)
			requireSameParams(t, a.Policy, b.Policy)
			for _, srv := range tc.servers {
				assert.Eventually(t, func() bool { return srv.Sessions() == 0 }, 5*time.Second, 10*time.Millisecond, "the run closed every session it opened")
			}
			if len(tc.servers) == 2 {
				mu.Lock()
				defer mu.Unlock()
				// Made in turn: env k on server k mod 2, so the 8 slots
				// (and every other env) are split evenly between them.
				require.NotEmpty(t, sessions)
				for k, id := range sessions {
					assert.Equal(t, 1+k%2, id, "session %d of %v", k, sessions)
				}
			}
		})
	}
}

// env.remote is one address or a list of them, in a file, in -set, and
// in the config a run saves; each address is checked.
func TestRemoteConfig(t *testing.T) {
	for _, tc := range []struct {
		yaml string
		want Remotes
	}{
		{`remote: ws://127.0.0.1:8000`, Remotes{"ws://127.0.0.1:8000"}},
		{`remote: [ws://a:8000, ws://b:8000]`, Remotes{"ws://a:8000", "ws://b:8000"}},
		{`remote: ""`, nil},
		{`remote:`, nil},
	} {
		var ec EnvConfig
		require.NoError(t, yaml.Unmarshal([]byte(tc.yaml), &ec), tc.yaml)
		assert.Equal(t, tc.want, ec.Remote, tc.yaml)
		out, err := yaml.Marshal(ec)
		require.NoError(t, err)
		var back EnvConfig
		require.NoError(t, yaml.Unmarshal(out, &back))
		assert.Equal(t, tc.want, back.Remote, "saved as\n%s", out)
	}
	var ec EnvConfig
	err := yaml.Unmarshal([]byte(`remote: {a: 1}`), &ec)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "env.remote: want an env server address (ws://host:port) or a list of them")

	cfg := tinyConfig("rebn")
	require.NoError(t, cfg.Set("env.remote=[ws://a:1, ws://b:2]"))
	assert.Equal(t, Remotes{"ws://a:1", "ws://b:2"}, cfg.Env.Remote)
	require.NoError(t, cfg.Set("env.remote=ws://c:3"))
	assert.Equal(t, Remotes{"ws://c:3"}, cfg.Env.Remote)
	err = cfg.Set("env.remote={a: 1}")
	require.Error(t, err)
	assert.Contains(t, err.Error(), `override env.remote: value "{a: 1}" is not a valid env server address (ws://host:port) or list of them`)

	cfg.Env.Remote = Remotes{"ws://a:1", "b:2"}
	err = cfg.Validate()
	require.Error(t, err)
	assert.Contains(t, err.Error(), `env.remote (address 2 of 2) = "b:2"`)
	assert.Contains(t, err.Error(), "ws://host:port")
}

func TestRemoteEnvConfigErrors(t *testing.T) {
	cfg := tinyConfig("rebn")
	cfg.Env.Remote = Remotes{"127.0.0.1:8000"}
	err := cfg.Validate()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "env.remote")
	assert.Contains(t, err.Error(), "ws://host:port")

	cfg.Env.Remote = Remotes{"ws://127.0.0.1:1"} // nothing listens there
	_, err = Run(context.Background(), cfg, builtin.Registry(), Options{Dir: t.TempDir()})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "is cmd/envserver running there?")
}
