package remote_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/builtin"
	"github.com/gemgo/gemgo/envs/remote"
	"github.com/gemgo/gemgo/envs/remote/client"
	"github.com/gemgo/gemgo/envs/remote/wire"
)

const guessID = "game:GuessTheNumber-v0-hard"

// rawDial opens a WebSocket to the server without the Go client.
func rawDial(t *testing.T, url string, opts *websocket.DialOptions) *websocket.Conn {
	t.Helper()
	if !strings.HasSuffix(url, "/ws") {
		url += "/ws"
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, url, opts)
	require.NoError(t, err)
	t.Cleanup(func() { c.CloseNow() })
	return c
}

func send(t *testing.T, c *websocket.Conn, typ websocket.MessageType, frame string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	require.NoError(t, c.Write(ctx, typ, []byte(frame)))
}

// recv reads one message: its type and data.
func recv(t *testing.T, c *websocket.Conn) (string, map[string]any) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, b, err := c.Read(ctx)
	require.NoError(t, err)
	var m struct {
		Type string         `json:"type"`
		Data map[string]any `json:"data"`
	}
	require.NoError(t, json.Unmarshal(b, &m), "%s", b)
	return m.Type, m.Data
}

func wantError(t *testing.T, c *websocket.Conn, code string) {
	t.Helper()
	typ, data := recv(t, c)
	require.Equal(t, "error", typ, "%v", data)
	assert.Equal(t, code, data["code"], "%v", data["message"])
	assert.NotEmpty(t, data["message"])
}

// closeStatus waits for the server to close c and returns the status.
func closeStatus(t *testing.T, c *websocket.Conn, within time.Duration) websocket.StatusCode {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), within)
	defer cancel()
	for {
		_, _, err := c.Read(ctx)
		if err != nil {
			require.NoError(t, ctx.Err(), "the server did not close the session within %s", within)
			return websocket.CloseStatus(err)
		}
	}
}

// playGuess plays one episode of GuessTheNumber with fixed guesses through
// the Go client and checks it against the same episode in-process: the
// proof that a session is unaffected by faults in others.
func playGuess(t *testing.T, url string, seed uint64) {
	t.Helper()
	far, err := client.Dial(context.Background(), url, guessID)
	require.NoError(t, err)
	defer far.(interface{ Close() error }).Close()
	local, err := builtin.Registry().Make(guessID)
	require.NoError(t, err)
	lo, _, err := local.Reset(seed)
	require.NoError(t, err)
	fo, _, err := far.Reset(seed)
	require.NoError(t, err)
	require.Equal(t, lo, fo)
	for _, g := range []string{"25", "12", "37", "6", "18", "31", "43"} {
		ls, err := local.Step(envs.Boxed(g))
		require.NoError(t, err)
		fs, err := far.Step(envs.Boxed(g))
		require.NoError(t, err)
		require.Equal(t, ls, fs)
		if ls.Done() {
			return
		}
	}
}

func TestFaultGarbageFrames(t *testing.T) {
	srv, url := serve(t, remote.Config{})
	c := rawDial(t, url+"/e/"+guessID+"/ws", nil)
	for _, tc := range []struct {
		typ   websocket.MessageType
		frame string
		code  string
	}{
		{websocket.MessageText, "garbage", wire.CodeInvalidJSON},
		{websocket.MessageBinary, "\x00\xff\xfe", wire.CodeInvalidJSON},
		{websocket.MessageText, `[1,2,3]`, wire.CodeInvalidJSON},
		{websocket.MessageText, `{"type":"jump"}`, wire.CodeUnknownType},
		{websocket.MessageText, `{"data":{}}`, wire.CodeUnknownType},
		{websocket.MessageText, `{"type":"reset","data":{"seed":-3}}`, wire.CodeValidation},
		{websocket.MessageText, `{"type":"reset","data":{"colour":1}}`, wire.CodeValidation},
		{websocket.MessageText, `{"type":"reset","data":{"options":{"no_such":1}}}`, wire.CodeFactory},
		{websocket.MessageText, `{"type":"reset","data":{"env_id":"game:Mastermind-v0-easy"}}`, wire.CodeValidation},
	} {
		send(t, c, tc.typ, tc.frame)
		wantError(t, c, tc.code)
	}
	// The session survives its own garbage.
	send(t, c, websocket.MessageText, `{"type":"reset","data":{"seed":5}}`)
	typ, data := recv(t, c)
	require.Equal(t, "observation", typ)
	assert.Equal(t, false, data["done"])
	assert.Nil(t, data["reward"], "a reset has no reward")

	// Bytes that are not WebSocket frames at all drop that connection only.
	raw := rawUpgrade(t, url)
	_, err := raw.Write([]byte("\x8f\x05hello, not a frame"))
	require.NoError(t, err)
	require.NoError(t, raw.SetReadDeadline(time.Now().Add(5*time.Second)))
	_, err = bufio.NewReader(raw).ReadBytes(0)
	assert.Error(t, err, "the server closes a connection that breaks the framing")
	assert.Eventually(t, func() bool { return srv.Sessions() == 1 }, 5*time.Second, 10*time.Millisecond)
	playGuess(t, url, 3)
}

// rawUpgrade performs the WebSocket handshake by hand and returns the TCP
// connection, to send bytes that no client library would.
func rawUpgrade(t *testing.T, url string) net.Conn {
	t.Helper()
	host := strings.TrimPrefix(url, "ws://")
	conn, err := net.DialTimeout("tcp", host, 5*time.Second)
	require.NoError(t, err)
	t.Cleanup(func() { conn.Close() })
	fmt.Fprintf(conn, "GET /ws HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"+
		"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n", host)
	require.NoError(t, conn.SetReadDeadline(time.Now().Add(5*time.Second)))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	require.NoError(t, err)
	require.Equal(t, http.StatusSwitchingProtocols, resp.StatusCode)
	return conn
}

func TestFaultOversizedMessage(t *testing.T) {
	srv, url := serve(t, remote.Config{MaxMessageBytes: 4096})
	c := rawDial(t, url, nil)
	send(t, c, websocket.MessageText, `{"type":"step","data":{"message":"`+strings.Repeat("x", 8192)+`"}}`)
	assert.Equal(t, websocket.StatusMessageTooBig, closeStatus(t, c, 5*time.Second))
	assert.Eventually(t, func() bool { return srv.Sessions() == 0 }, 5*time.Second, 10*time.Millisecond)
	playGuess(t, url, 4)
}

func TestFaultAbruptDisconnect(t *testing.T) {
	srv, url := serve(t, remote.Config{})
	other, err := client.Dial(context.Background(), url, guessID)
	require.NoError(t, err)
	defer other.(interface{ Close() error }).Close()
	_, _, err = other.Reset(9)
	require.NoError(t, err)

	c := rawDial(t, url, nil)
	send(t, c, websocket.MessageText, `{"type":"reset","data":{"seed":1,"env_id":"`+guessID+`"}}`)
	recv(t, c)
	send(t, c, websocket.MessageText, `{"type":"step","data":{"message":"\\boxed{3}"}}`)
	recv(t, c)
	c.CloseNow() // mid-episode, no close frame
	assert.Eventually(t, func() bool { return srv.Sessions() == 1 }, 5*time.Second, 10*time.Millisecond,
		"the dropped session is released; the other one stays")
	st, err := other.Step(envs.Boxed("25"))
	require.NoError(t, err, "the other session goes on mid-episode")
	assert.NotEmpty(t, st.Obs)
}

// smallBuffers accepts connections with 4 KiB send buffers.
type smallBuffers struct{ *net.TCPListener }

func (l smallBuffers) Accept() (net.Conn, error) {
	c, err := l.AcceptTCP()
	if err == nil {
		_ = c.SetWriteBuffer(4096)
	}
	return c, err
}

// A client that sends without ever reading is dropped once the server's
// replies cannot be written within WriteTimeout; the others play on.
func TestFaultClientNeverReads(t *testing.T) {
	srv, err := remote.NewServer(builtin.Registry(), remote.Config{WriteTimeout: 300 * time.Millisecond})
	require.NoError(t, err)
	// Small socket buffers on both sides: a few replies fill them.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	hs := httptest.NewUnstartedServer(srv)
	hs.Listener = smallBuffers{ln.(*net.TCPListener)}
	hs.Start()
	t.Cleanup(hs.Close)
	url := "ws://" + strings.TrimPrefix(hs.URL, "http://")
	small := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		conn, err := (&net.Dialer{}).DialContext(ctx, network, addr)
		if tc, ok := conn.(*net.TCPConn); ok {
			_ = tc.SetReadBuffer(4096)
		}
		return conn, err
	}}}
	c := rawDial(t, url, &websocket.DialOptions{HTTPClient: small})
	stopped := make(chan error, 1)
	go func() {
		frame := []byte(`{"type":"reset","data":{"seed":1,"env_id":"game:Crosswords-v0-hard"}}`)
		for range 200000 {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			err := c.Write(ctx, websocket.MessageText, frame)
			cancel()
			if err != nil {
				stopped <- err
				return
			}
		}
		stopped <- errors.New("the server took 200000 messages without dropping the session")
	}()
	require.Eventually(t, func() bool { return srv.Sessions() == 0 }, 20*time.Second, 20*time.Millisecond,
		"the server drops a session whose client does not read")
	playGuess(t, url, 5)
	select {
	case err := <-stopped:
		assert.NotContains(t, err.Error(), "without dropping")
	case <-time.After(15 * time.Second):
		t.Fatal("the flooding client's writes never failed")
	}
}

func TestFaultStepBeforeResetAndAfterDone(t *testing.T) {
	srv, url := serve(t, remote.Config{})
	env, err := client.Dial(context.Background(), url, guessID)
	require.NoError(t, err)
	defer env.(interface{ Close() error }).Close()
	_, err = env.Step(envs.Boxed("1"))
	var re *wire.Error
	require.ErrorAs(t, err, &re)
	assert.Equal(t, wire.CodeExecution, re.Code)
	assert.Contains(t, re.Message, "step before reset")

	_, _, err = env.Reset(2)
	require.NoError(t, err)
	var last envs.Step
	for !last.Done() {
		last, err = env.Step("no box: a format error ends the episode")
		require.NoError(t, err)
	}
	_, err = env.Step(envs.Boxed("1"))
	require.ErrorAs(t, err, &re)
	assert.Equal(t, wire.CodeExecution, re.Code)
	assert.Contains(t, re.Message, "after the episode ended")
	_, _, err = env.Reset(3)
	require.NoError(t, err, "a reset starts again after misuse")
	assert.Equal(t, 1, srv.Sessions())
}

func TestCapacityReached(t *testing.T) {
	srv, url := serve(t, remote.Config{MaxSessions: 2})
	a := rawDial(t, url, nil)
	b := rawDial(t, url, nil)
	require.Eventually(t, func() bool { return srv.Sessions() == 2 }, 5*time.Second, 10*time.Millisecond)
	c := rawDial(t, url, nil)
	wantError(t, c, wire.CodeCapacityReached)
	assert.Equal(t, websocket.StatusTryAgainLater, closeStatus(t, c, 5*time.Second))
	_, err := client.Dial(context.Background(), url, guessID)
	require.ErrorContains(t, err, wire.CodeCapacityReached)

	send(t, a, websocket.MessageText, `{"type":"close"}`)
	assert.Equal(t, websocket.StatusNormalClosure, closeStatus(t, a, 5*time.Second))
	require.Eventually(t, func() bool { return srv.Sessions() == 1 }, 5*time.Second, 10*time.Millisecond)
	playGuess(t, url, 6) // the freed slot serves a new client
	_ = b
}

func TestIdleSessionsAreReaped(t *testing.T) {
	srv, url := serve(t, remote.Config{IdleTimeout: 300 * time.Millisecond})
	c := rawDial(t, url, nil)
	send(t, c, websocket.MessageText, `{"type":"state"}`)
	typ, data := recv(t, c)
	require.Equal(t, "state", typ)
	assert.Equal(t, 0.0, data["step_count"])
	assert.Equal(t, websocket.StatusPolicyViolation, closeStatus(t, c, 5*time.Second))
	assert.Eventually(t, func() bool { return srv.Sessions() == 0 }, 5*time.Second, 10*time.Millisecond)
}

func TestShutdownClosesSessions(t *testing.T) {
	srv, err := remote.NewServer(builtin.Registry(), remote.Config{})
	require.NoError(t, err)
	hs := newLoopback(t, srv)
	url := "ws://" + hs
	var conns []*websocket.Conn
	for i := range 3 {
		c := rawDial(t, url, nil)
		send(t, c, websocket.MessageText, fmt.Sprintf(`{"type":"reset","data":{"seed":%d,"env_id":%q}}`, i, guessID))
		typ, _ := recv(t, c)
		require.Equal(t, "observation", typ)
		conns = append(conns, c)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- srv.Shutdown(ctx) }()
	for _, c := range conns {
		assert.Equal(t, websocket.StatusGoingAway, closeStatus(t, c, 5*time.Second))
	}
	require.NoError(t, <-done)
	assert.Zero(t, srv.Sessions())
	resp, err := http.Get("http://" + hs + "/health")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusServiceUnavailable, resp.StatusCode, "a draining replica fails its health check")
	c := rawDial(t, url, nil)
	wantError(t, c, wire.CodeCapacityReached)
}
