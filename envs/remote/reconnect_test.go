package remote_test

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/builtin"
	"github.com/gemgo/gemgo/envs/remote"
	"github.com/gemgo/gemgo/envs/remote/client"
)

// switchProxy is a loopback TCP proxy that sends each new connection to
// its current backend, as a balancer sends new sessions to a live replica.
type switchProxy struct {
	ln      net.Listener
	backend atomic.Pointer[string]
	wg      sync.WaitGroup
	mu      sync.Mutex
	conns   []net.Conn
}

func newSwitchProxy(t *testing.T, backend string) *switchProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	p := &switchProxy{ln: ln}
	p.backend.Store(&backend)
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			b, err := net.DialTimeout("tcp", *p.backend.Load(), 5*time.Second)
			if err != nil {
				_ = c.Close()
				continue
			}
			p.mu.Lock()
			p.conns = append(p.conns, c, b)
			p.mu.Unlock()
			p.wg.Add(2)
			go p.pipe(c, b)
			go p.pipe(b, c)
		}
	}()
	t.Cleanup(func() {
		_ = ln.Close()
		p.mu.Lock()
		for _, c := range p.conns {
			_ = c.Close()
		}
		p.mu.Unlock()
		p.wg.Wait()
	})
	return p
}

func (p *switchProxy) pipe(dst, src net.Conn) {
	defer p.wg.Done()
	_, _ = io.Copy(dst, src)
	_ = dst.Close()
	_ = src.Close()
}

func (p *switchProxy) url() string { return "ws://" + p.ln.Addr().String() }

// stopServer starts draining srv as cmd/envserver's SIGTERM does (every
// session is closed with status 1001) and returns a function that waits
// until the drain is done. The drain waits for each client to answer its
// close, which a client does at its next call.
func stopServer(t *testing.T, srv *remote.Server) (wait func()) {
	t.Helper()
	done := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		done <- srv.Shutdown(ctx)
	}()
	return func() {
		t.Helper()
		require.NoError(t, <-done)
	}
}

// A session whose server goes away mid-episode reconnects through the
// proxy to another server, replays the episode (its seed and actions)
// and goes on: the whole episode, random actions included, equals the
// same episode in-process, and the session was opened again once.
func TestReconnectReplaysTheEpisode(t *testing.T) {
	srvA, urlA := serve(t, remote.Config{})
	srvB, urlB := serve(t, remote.Config{})
	_, urlC := serve(t, remote.Config{})
	proxy := newSwitchProxy(t, urlA[len("ws://"):])

	type turn struct {
		action string
		step   envs.Step
	}
	play := func(env envs.Env, seed uint64, cut func(i int)) (string, []turn) {
		t.Helper()
		sampler, ok := envs.SamplerOf(env)
		require.True(t, ok)
		rng := newRand(seed)
		obs, _, err := env.Reset(seed)
		require.NoError(t, err)
		var turns []turn
		for i := 0; i < 50; i++ {
			cut(i)
			a := sampler.SampleAction(rng)
			require.NotEmpty(t, a, "turn %d", i)
			st, err := env.Step(a)
			require.NoError(t, err, "turn %d", i)
			turns = append(turns, turn{a, st})
			if st.Done() {
				break
			}
		}
		return obs, turns
	}
	local, err := builtin.Registry().Make(guessID)
	require.NoError(t, err)
	wantObs, want := play(local, 7, func(int) {})
	require.Greater(t, len(want), 3, "the episode is long enough to cut in its middle")

	far, err := client.Dial(context.Background(), proxy.url(), guessID)
	require.NoError(t, err)
	defer envs.Close(far)
	var drainedA func()
	gotObs, got := play(far, 7, func(i int) {
		if i == 2 { // two steps played on A: new sessions go to B, A goes away
			b := urlB[len("ws://"):]
			proxy.backend.Store(&b)
			drainedA = stopServer(t, srvA)
		}
	})
	drainedA()
	assert.Equal(t, wantObs, gotObs)
	assert.Equal(t, want, got)
	assert.Equal(t, 1, far.(interface{ Reconnects() int }).Reconnects())

	// Between episodes: the next reset goes to C.
	c := urlC[len("ws://"):]
	proxy.backend.Store(&c)
	drainedB := stopServer(t, srvB)
	wantObs, want = play(local, 8, func(int) {})
	gotObs, got = play(far, 8, func(int) {})
	drainedB()
	assert.Equal(t, wantObs, gotObs)
	assert.Equal(t, want, got)
	assert.Equal(t, 2, far.(interface{ Reconnects() int }).Reconnects())
}

// A replay that differs from the first play (the new server makes another
// env) fails with an error that says so, and a Dialer with reconnecting
// off fails at the first broken connection.
func TestReconnectRefusesADifferentReplay(t *testing.T) {
	srvA, urlA := serve(t, remote.Config{DefaultID: guessID})
	_, urlB := serve(t, remote.Config{DefaultID: "game:GuessTheNumber-v0-easy"})
	proxy := newSwitchProxy(t, urlA[len("ws://"):])
	far, err := client.Dial(context.Background(), proxy.url(), "") // the server's default env
	require.NoError(t, err)
	defer envs.Close(far)
	off, err := (&client.Dialer{Reconnect: -1}).Dial(context.Background(), proxy.url(), guessID)
	require.NoError(t, err)
	defer envs.Close(off)
	_, _, err = far.Reset(3)
	require.NoError(t, err)
	_, _, err = off.Reset(3)
	require.NoError(t, err)

	b := urlB[len("ws://"):]
	proxy.backend.Store(&b)
	drained := stopServer(t, srvA)
	// Step only once A has closed both sessions: a step sent while the
	// shutdown is still on its way would be answered by A.
	require.Eventually(t, func() bool { return srvA.Sessions() == 0 }, 30*time.Second, 10*time.Millisecond)
	_, err = far.Step(envs.Boxed("50"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "replaying the episode (seed 3) on a new session: the reset's observation differs from the first play")
	_, err = far.Step(envs.Boxed("50"))
	require.Error(t, err, "a failed replay stays failed")

	_, err = off.Step(envs.Boxed("50"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "status 1001")
	assert.Zero(t, off.(interface{ Reconnects() int }).Reconnects())
	drained()
}

// cuttingProxy relays WebSocket messages between a client and the server
// at backend, and drops both connections, once, instead of relaying the
// server message that cut picks.
func cuttingProxy(t *testing.T, backend string, cut func(msg []byte) bool) string {
	t.Helper()
	var cutOnce sync.Once
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer c.CloseNow()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		b, _, err := websocket.Dial(ctx, backend+"/ws", nil)
		if err != nil {
			return
		}
		defer b.CloseNow()
		go func() {
			defer cancel()
			for {
				typ, m, err := c.Read(ctx)
				if err != nil || b.Write(ctx, typ, m) != nil {
					return
				}
			}
		}()
		for {
			typ, m, err := b.Read(ctx)
			if err != nil {
				return
			}
			dropped := false
			if cut(m) {
				cutOnce.Do(func() { dropped = true })
			}
			if dropped || c.Write(ctx, typ, m) != nil {
				return
			}
		}
	})
	return "ws://" + newLoopback(t, h)
}

// cutThirdSample is a cuttingProxy rule: the connection drops at the
// server's answer to the third sample, after the client sent its random
// numbers.
func cutThirdSample() func([]byte) bool {
	actions := 0
	return func(m []byte) bool {
		if bytes.Contains(m, []byte(`"type":"action"`)) {
			actions++
			return actions == 3
		}
		return false
	}
}

// A connection dropped in the middle of a SampleAction, after the client
// has given the server its random numbers: the draw is made again on the
// new session with the same numbers, so the caller's RNG advances once,
// as without the cut, and the episode equals in-process play.
func TestReconnectMidSample(t *testing.T) {
	_, url := serve(t, remote.Config{})
	proxy := cuttingProxy(t, url, cutThirdSample())
	play := func(env envs.Env) []envs.Step {
		t.Helper()
		sampler, ok := envs.SamplerOf(env)
		require.True(t, ok)
		rng := newRand(11)
		_, _, err := env.Reset(11)
		require.NoError(t, err)
		var steps []envs.Step
		for i := 0; i < 50; i++ {
			st, err := env.Step(sampler.SampleAction(rng))
			require.NoError(t, err)
			steps = append(steps, st)
			if st.Done() {
				break
			}
		}
		return steps
	}
	local, err := builtin.Registry().Make(guessID)
	require.NoError(t, err)
	want := play(local)
	require.Greater(t, len(want), 3)
	far, err := client.Dial(context.Background(), proxy, guessID)
	require.NoError(t, err)
	defer envs.Close(far)
	assert.Equal(t, want, play(far))
	assert.Equal(t, 1, far.(interface{ Reconnects() int }).Reconnects())
}
