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

	"github.com/gemgo/gemgo/algo"
	"github.com/gemgo/gemgo/envs/builtin"
	"github.com/gemgo/gemgo/envs/remote"
	"github.com/gemgo/gemgo/internal/stalltest"
	"github.com/gemgo/gemgo/policy"
)

// stallBound is how long a run may take to stop once cancelled while its
// env server is silent. Before the run's context reached the remote
// client, such a run waited forever (in the dial) or 60 s per exchange;
// the fixed run stops in milliseconds, and 10 s keeps a busy machine from
// making the tests flake.
const stallBound = 10 * time.Second

// env.remote names a server that accepts and never answers: the run
// stops when cancelled (Ctrl-C), and makes no run directory.
func TestRunStopsWhenRemoteIsSilent(t *testing.T) {
	cfg := tinyConfig("rebn")
	cfg.Env.Remote = Remotes{"ws://" + stalltest.Silent(t)}
	dir := filepath.Join(t.TempDir(), "run")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	time.AfterFunc(300*time.Millisecond, cancel)
	start := time.Now()
	_, err := Run(ctx, cfg, builtin.Registry(), Options{Dir: dir})
	require.Error(t, err)
	assert.Less(t, time.Since(start), stallBound)
	assert.ErrorIs(t, err, context.Canceled)
	assert.NoDirExists(t, dir)
}

// stallObserver makes the env server go silent after an iteration and
// cancels the run shortly after, while it waits on the server.
type stallObserver struct {
	recordObserver
	at       int
	proxy    *stalltest.Proxy
	cancelAt time.Time
}

func (o *stallObserver) Iteration(it int, m algo.Metrics) {
	o.recordObserver.Iteration(it, m)
	if it == o.at {
		o.proxy.Stall()
		o.cancelAt = time.Now().Add(300 * time.Millisecond)
		time.AfterFunc(300*time.Millisecond, o.cancel)
	}
}

// The env server goes silent mid-run (as one stopped by SIGSTOP): the run
// stops when cancelled, saving its checkpoint at the last completed
// iteration, instead of waiting until the server answers again.
func TestRunStopsWhenRemoteStallsMidRun(t *testing.T) {
	srv, err := remote.NewServer(builtin.Registry(), remote.Config{})
	require.NoError(t, err)
	hs := httptest.NewServer(srv)
	defer hs.Close()
	proxy := stalltest.NewProxy(t, strings.TrimPrefix(hs.URL, "http://"))

	cfg := tinyConfig("rebn")
	cfg.Iterations = 1000
	cfg.Env.Remote = Remotes{"ws://" + proxy.Addr()}
	dir := filepath.Join(t.TempDir(), "run")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	o := &stallObserver{at: 2, proxy: proxy}
	o.cancel = cancel
	_, err = Run(ctx, cfg, builtin.Registry(), Options{Dir: dir, Observer: o})
	require.ErrorIs(t, err, ErrInterrupted)
	require.False(t, o.cancelAt.IsZero(), "the server stalled")
	assert.Less(t, time.Since(o.cancelAt), stallBound, "stopped soon after the cancel")
	assert.Contains(t, err.Error(), "interrupted at iteration 2")
	ck, err := policy.LoadCheckpoint(filepath.Join(dir, CheckpointFile))
	require.NoError(t, err)
	assert.Equal(t, "2", ck.Meta["iteration"])
}
