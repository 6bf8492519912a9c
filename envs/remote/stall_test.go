package remote_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/remote"
	"github.com/gemgo/gemgo/envs/remote/client"
	"github.com/gemgo/gemgo/internal/stalltest"
)

// Bounds on a peer that never answers. Without them Dial and every
// exchange waited forever (the dial had no timeout) or for the 60 s
// default; the assertions allow 10 s, far above the milliseconds the
// fixed client takes, so a busy machine does not make them flake.
const stallBound = 10 * time.Second

// A server that accepts the connection and never answers: Dial returns
// when its context is cancelled, and on its own after DialTimeout, with a
// message that says so.
func TestDialSilentServer(t *testing.T) {
	url := "ws://" + stalltest.Silent(t)

	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	start := time.Now()
	_, err := client.Dial(ctx, url, guessID)
	require.Error(t, err)
	assert.Less(t, time.Since(start), stallBound)
	assert.ErrorIs(t, err, context.Canceled)

	d := client.Dialer{DialTimeout: 300 * time.Millisecond}
	start = time.Now()
	_, err = d.Dial(context.Background(), url, guessID)
	require.Error(t, err)
	assert.Less(t, time.Since(start), stallBound)
	assert.Contains(t, err.Error(), "no answer within 300ms")
	assert.Contains(t, err.Error(), "is cmd/envserver running there")
}

// A server that goes silent mid-session (SIGSTOP, a dead link): a step in
// progress returns as soon as the session's context is cancelled, with an
// error wrapping the context's, and Close does not wait for a closing
// handshake. Without the context, Dialer.Timeout ends the step.
func TestSessionStallsMidway(t *testing.T) {
	_, url := serve(t, remote.Config{})
	proxy := stalltest.NewProxy(t, strings.TrimPrefix(url, "ws://"))

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	env, err := client.Dial(ctx, "ws://"+proxy.Addr(), guessID)
	require.NoError(t, err)
	_, _, err = env.Reset(1)
	require.NoError(t, err, "the proxy forwards until it stalls")
	proxy.Stall()
	done := make(chan error, 1)
	go func() {
		_, err := env.Step("[50]")
		done <- err
	}()
	time.Sleep(200 * time.Millisecond) // the step is waiting for its answer
	start := time.Now()
	cancel()
	select {
	case err := <-done:
		require.Error(t, err)
		assert.ErrorIs(t, err, context.Canceled)
		assert.Contains(t, err.Error(), "stopped")
	case <-time.After(stallBound):
		t.Fatal("the step ignored the cancelled context")
	}
	require.NoError(t, envs.Close(env))
	assert.Less(t, time.Since(start), stallBound, "the step and Close return at once")
	_, err = env.Step("[50]")
	assert.ErrorIs(t, err, context.Canceled, "a stopped session stays stopped")

	// The same stall without a cancel: the exchange's timeout ends it.
	proxy2 := stalltest.NewProxy(t, strings.TrimPrefix(url, "ws://"))
	d := client.Dialer{Timeout: 300 * time.Millisecond}
	env2, err := d.Dial(context.Background(), "ws://"+proxy2.Addr(), guessID)
	require.NoError(t, err)
	_, _, err = env2.Reset(1)
	require.NoError(t, err)
	proxy2.Stall()
	start = time.Now()
	_, err = env2.Step("[50]")
	require.Error(t, err)
	assert.True(t, errors.Is(err, context.DeadlineExceeded), "%v", err)
	assert.Contains(t, err.Error(), "no answer within 300ms")
	require.NoError(t, envs.Close(env2))
	assert.Less(t, time.Since(start), stallBound)
}
