package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/builtin"
	"github.com/gemgo/gemgo/envs/remote/client"
	"github.com/gemgo/gemgo/internal/cli"
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
		assert.Equal(t, cli.ExitUsage, run(context.Background(), tc.args, io.Discard, &stderr), "%v", tc.args)
		assert.Contains(t, stderr.String(), tc.want)
	}
}

// The command serves, answers its health check, plays an env, and drains
// when its context is cancelled (as by SIGTERM) with exit status 0.
func TestServeAndDrain(t *testing.T) {
	ready := make(chan string, 1)
	code := make(chan int, 1)
	var stderr bytes.Buffer
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		code <- server{ready: func(a string) { ready <- a }}.run(ctx, []string{"-addr", "127.0.0.1:0", "-env", "game:GuessTheNumber-v0-easy"}, io.Discard, &stderr)
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

	env, err := client.Dial(context.Background(), "ws://"+addr, "")
	require.NoError(t, err)
	obs, _, err := env.Reset(1)
	require.NoError(t, err)
	assert.NotEmpty(t, obs)

	cancel()
	select {
	case c := <-code:
		assert.Equal(t, cli.ExitOK, c, stderr.String())
	case <-time.After(15 * time.Second):
		t.Fatal("the server did not drain")
	}
	_, err = env.Step(`\boxed{3}`)
	require.Error(t, err, "the session was closed by the drain")
	// The client reconnects after a drain's close (status 1001), and
	// with no server left it gives up.
	assert.Contains(t, err.Error(), "after 5 reconnects")
	assert.Contains(t, stderr.String(), "envserver: stopped")
}

func TestBadOptionFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-option-cap", "timeout"}, `-option-cap: "timeout": want name=value, e.g. timeout=30`},
		{[]string{"-option-cap", "timeout=0"}, `-option-cap: timeout = "0": want a number > 0`},
		{[]string{"-option-cap", "memory_mb=lots"}, `-option-cap: memory_mb = "lots": want a number > 0`},
		{[]string{"-option-cap", "=3"}, `-option-cap: "=3": want name=value`},
	} {
		var stderr bytes.Buffer
		assert.Equal(t, cli.ExitUsage, run(context.Background(), tc.args, io.Discard, &stderr), "%v", tc.args)
		assert.Contains(t, stderr.String(), tc.want)
	}
}

// running is the command serving in this test process.
type running struct {
	cancel context.CancelFunc // stops it, as SIGTERM does under cli.Main
	code   chan int           // its exit status
}

// start runs the command with args until stopServer and returns its
// address.
func start(t *testing.T, args ...string) (string, running, *bytes.Buffer) {
	t.Helper()
	ready := make(chan string, 1)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	r := running{cancel: cancel, code: make(chan int, 1)}
	var stderr bytes.Buffer
	go func() {
		r.code <- server{ready: func(a string) { ready <- a }}.run(ctx, append([]string{"-addr", "127.0.0.1:0"}, args...), io.Discard, &stderr)
	}()
	select {
	case addr := <-ready:
		return addr, r, &stderr
	case <-time.After(10 * time.Second):
		t.Fatal("the server did not start")
	}
	return "", r, nil
}

// stopServer stops the command and waits for the exit status 0.
func stopServer(t *testing.T, r running, stderr *bytes.Buffer) {
	t.Helper()
	r.cancel()
	select {
	case c := <-r.code:
		assert.Equal(t, cli.ExitOK, c, stderr.String())
	case <-time.After(30 * time.Second):
		t.Fatal("the server did not stop")
	}
}

// -allow-option lets clients set an option that is the operator's by
// default, and -option-cap moves a cap; without them both are refused.
func TestAllowOptionFlag(t *testing.T) {
	words := filepath.Join(t.TempDir(), "words.txt")
	require.NoError(t, os.WriteFile(words, []byte("crane\nslate\nplumb\n"), 0o600))
	for _, allow := range []bool{false, true} {
		var args []string
		if allow {
			args = []string{"-allow-option", "word_file", "-option-cap", "timeout=0.5"}
		}
		addr, code, stderr := start(t, args...)
		_, err := client.Dial(context.Background(), "ws://"+addr, "game:Wordle-v0-hard", envs.With("word_file", words))
		if allow {
			assert.NoError(t, err)
			assert.Contains(t, stderr.String(), "clients may set the env options word_file")
		} else {
			require.Error(t, err)
			assert.Contains(t, err.Error(), "option word_file: a client of this server may not set it: it names a file on the server; remove it (its operator lets clients set it with cmd/envserver -allow-option word_file)")
		}
		_, err = client.Dial(context.Background(), "ws://"+addr, "code:sample", envs.With("timeout", 1))
		if allow {
			require.Error(t, err, "the cap of 0.5 s refuses 1 s")
			assert.Contains(t, err.Error(), "option timeout = 1 is above this server's cap of 0.5 for its clients")
		} else if err != nil {
			assert.NotContains(t, err.Error(), "option timeout", "1 s is within the default cap")
		}
		stopServer(t, code, stderr)
	}
}

// A clean stop closes the code envs' warm interpreters: no work directory
// of this process is left in the temp dir.
func TestStopRemovesWarmWorkDirs(t *testing.T) {
	var py string
	if _, err := builtin.Registry().Make("code:sample"); err != nil {
		py = "/usr/bin/python3"
		if _, err := builtin.Registry().Make("code:sample", envs.With("python", py)); err != nil {
			t.Skipf("code envs need a python3 the sandbox can run (apt-get install python3): %v", err)
		}
	}
	var args []string
	var opts []envs.Option
	if py != "" {
		args = []string{"-allow-option", "python"}
		opts = []envs.Option{envs.With("python", py)}
	}
	addr, code, stderr := start(t, args...)
	env, err := client.Dial(context.Background(), "ws://"+addr, "code:sample", opts...)
	require.NoError(t, err)
	_, _, err = env.Reset(1)
	require.NoError(t, err)
	st, err := env.Step("```python\nprint(1)\n```")
	require.NoError(t, err)
	require.True(t, st.Done())
	mine := fmt.Sprintf("gemgo-sandbox-%d-", os.Getpid())
	workDirs := func() []string {
		ents, err := os.ReadDir(os.TempDir())
		require.NoError(t, err)
		var out []string
		for _, e := range ents {
			if strings.HasPrefix(e.Name(), mine) {
				out = append(out, e.Name())
			}
		}
		return out
	}
	require.NotEmpty(t, workDirs(), "a warm interpreter keeps a work directory while it runs")
	stopServer(t, code, stderr)
	assert.Empty(t, workDirs())
}
