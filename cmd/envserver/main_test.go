package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/envs/remote"
)

func TestBadFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-env", "game:Nope"}, "unknown env id"},
		{[]string{"-max-sessions", "0"}, "-max-sessions = 0"},
		{[]string{"extra"}, "unexpected argument"},
		{[]string{"-tools", "python,mcp"}, `-tools: "mcp": want a comma-separated list of python, search (mcp cannot be served`},
		{[]string{"-tools", "pyton"}, `-tools: "pyton"`},
		{[]string{"-no-such-flag"}, "flag provided but not defined"},
	} {
		var stderr bytes.Buffer
		assert.Equal(t, 2, run(tc.args, &stderr, nil), "%v", tc.args)
		assert.Contains(t, stderr.String(), tc.want)
	}
}

// The command serves, answers its health check, plays an env, and drains
// on SIGTERM with exit status 0.
func TestServeAndDrain(t *testing.T) {
	ready := make(chan string, 1)
	code := make(chan int, 1)
	var stderr bytes.Buffer
	go func() {
		code <- run([]string{"-addr", "127.0.0.1:0", "-env", "game:GuessTheNumber-v0-easy"}, &stderr, ready)
	}()
	var addr string
	select {
	case addr = <-ready:
	case <-time.After(10 * time.Second):
		t.Fatal("the server did not start")
	}
	resp, err := http.Get("http://" + addr + "/health")
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.JSONEq(t, `{"status":"healthy"}`, string(body))

	env, err := remote.Dial(context.Background(), "ws://"+addr, "")
	require.NoError(t, err)
	obs, _, err := env.Reset(1)
	require.NoError(t, err)
	assert.NotEmpty(t, obs)

	require.NoError(t, syscall.Kill(syscall.Getpid(), syscall.SIGTERM))
	select {
	case c := <-code:
		assert.Equal(t, 0, c, stderr.String())
	case <-time.After(15 * time.Second):
		t.Fatal("the server did not drain")
	}
	_, err = env.Step(`\boxed{3}`)
	require.Error(t, err, "the session was closed by the drain")
	assert.True(t, strings.Contains(err.Error(), "1001") || strings.Contains(err.Error(), "closed"), err.Error())
	assert.Contains(t, stderr.String(), "envserver: stopped")
}
