package train

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/envs/builtin"
	"github.com/gemgo/gemgo/envs/remote"
	"github.com/gemgo/gemgo/policy"
)

// Training on an env played over cmd/envserver's protocol gives exactly
// the numbers of training on it in-process: the vocabulary and the warm-up
// come from the same random play (the server's SampleAction draws from the
// run's RNG), and every step returns the same text, reward and Info.
func TestRemoteEnvTrainsLikeInProcess(t *testing.T) {
	srv, err := remote.NewServer(builtin.Registry(), remote.Config{})
	require.NoError(t, err)
	hs := httptest.NewServer(srv)
	defer hs.Close()
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		assert.NoError(t, srv.Shutdown(ctx))
	}()

	cfg := tinyConfig("rebn")
	cfg.Iterations = 3
	local := &recordObserver{}
	dirA := filepath.Join(t.TempDir(), "local")
	resA, err := Run(context.Background(), cfg, builtin.Registry(), Options{Dir: dirA, Observer: local})
	require.NoError(t, err)

	cfg.Env.Remote = "ws://" + strings.TrimPrefix(hs.URL, "http://")
	far := &recordObserver{}
	dirB := filepath.Join(t.TempDir(), "remote")
	resB, err := Run(context.Background(), cfg, builtin.Registry(), Options{Dir: dirB, Observer: far})
	require.NoError(t, err)

	require.Len(t, far.iters, 3)
	assert.Equal(t, stable(local.iters), stable(far.iters), "every metric but timings")
	assert.Equal(t, local.evals, far.evals)
	assert.Equal(t, resA.EnvSteps, resB.EnvSteps)
	assert.Equal(t, resA.FinalEval, resB.FinalEval)
	a, err := policy.LoadCheckpoint(filepath.Join(dirA, FinalFile))
	require.NoError(t, err)
	b, err := policy.LoadCheckpoint(filepath.Join(dirB, FinalFile))
	require.NoError(t, err)
	requireSameParams(t, a.Policy, b.Policy)
	assert.Eventually(t, func() bool { return srv.Sessions() == 0 }, 5*time.Second, 10*time.Millisecond, "the run closed every session it opened")
}

func TestRemoteEnvConfigErrors(t *testing.T) {
	cfg := tinyConfig("rebn")
	cfg.Env.Remote = "127.0.0.1:8000"
	err := cfg.Validate()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "env.remote")
	assert.Contains(t, err.Error(), "ws://host:port")

	cfg.Env.Remote = "ws://127.0.0.1:1" // nothing listens there
	_, err = Run(context.Background(), cfg, builtin.Registry(), Options{Dir: t.TempDir()})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "is cmd/envserver running there?")
}
