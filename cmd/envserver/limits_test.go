package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/remote/client"
	"github.com/gemgo/gemgo/internal/cli"
)

// With a cap of 20 connections and idle and body timeouts of 300 ms: a
// WebSocket session outlives both timeouts and 200 idle keep-alive
// connections (they evict one another, never the session), /health still
// answers at once, and a trickled /reset body gets 408.
func TestConnectionLimits(t *testing.T) {
	var stderr bytes.Buffer
	assert.Equal(t, cli.ExitUsage, run(context.Background(), []string{"-max-conns", "10", "-max-sessions", "10"}, io.Discard, &stderr))
	assert.Contains(t, stderr.String(), "-max-conns above -max-sessions")

	ready := make(chan string, 1)
	code := make(chan int, 1)
	stderr.Reset()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		code <- server{ready: func(a string) { ready <- a }}.run(ctx, []string{"-addr", "127.0.0.1:0", "-env", "game:GuessTheNumber-v0-easy", "-max-sessions", "4",
			"-max-conns", "20", "-keep-alive", "300ms", "-body-timeout", "300ms"}, io.Discard, &stderr)
	}()
	var addr string
	select {
	case addr = <-ready:
	case <-time.After(10 * time.Second):
		t.Fatal("the server did not start")
	}
	defer func() {
		cancel()
		select {
		case c := <-code:
			assert.Equal(t, cli.ExitOK, c, stderr.String())
		case <-time.After(15 * time.Second):
			t.Fatal("the server did not stop")
		}
	}()

	env, err := client.Dial(context.Background(), "ws://"+addr, "")
	require.NoError(t, err)
	defer envs.Close(env)
	_, _, err = env.Reset(1)
	require.NoError(t, err)

	var conns []net.Conn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for range 200 {
		c, err := net.Dial("tcp", addr)
		require.NoError(t, err)
		conns = append(conns, c)
		require.NoError(t, c.SetDeadline(time.Now().Add(10*time.Second)))
		_, err = io.WriteString(c, "GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
		require.NoError(t, err)
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		require.NoError(t, err)
		resp.Body.Close()
	}
	client := &http.Client{Timeout: 20 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	t0 := time.Now()
	resp, err := client.Get("http://" + addr + "/health")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Less(t, time.Since(t0), 5*time.Second, "a bound generous for a loaded machine")

	time.Sleep(time.Second) // past the keep-alive and body timeouts
	_, err = env.Step(`\boxed{5}`)
	require.NoError(t, err, "the session outlives the HTTP timeouts and the evictions")

	c, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	defer c.Close()
	_, err = io.WriteString(c, "POST /reset HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{")
	require.NoError(t, err)
	require.NoError(t, c.SetReadDeadline(time.Now().Add(10*time.Second)))
	slow, err := http.ReadResponse(bufio.NewReader(c), nil)
	require.NoError(t, err)
	body, _ := io.ReadAll(slow.Body)
	slow.Body.Close()
	assert.Equal(t, http.StatusRequestTimeout, slow.StatusCode, "%s", body)
	assert.Contains(t, string(body), "did not arrive within 300ms")
}
