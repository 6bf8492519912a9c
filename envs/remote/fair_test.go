package remote_test

import (
	"context"
	"encoding/json"
	"runtime"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/builtin"
	"github.com/gemgo/gemgo/envs/remote"
)

// codePython returns the python option code envs need on this machine:
// "" when the default python3 runs under the sandbox, /usr/bin/python3
// when that one does; it skips the test when neither does.
func codePython(t *testing.T) string {
	t.Helper()
	var last error
	for _, py := range []string{"", "/usr/bin/python3"} {
		var opts []envs.Option
		if py != "" {
			opts = append(opts, envs.With("python", py))
		}
		env, err := builtin.Registry().Make("code:sample", opts...)
		if err == nil {
			_ = envs.Close(env)
			return py
		}
		last = err
	}
	t.Skipf("code envs need a python3 the sandbox can run (apt-get install python3): %v", last)
	return ""
}

// sendJSON sends one message.
func sendJSON(t *testing.T, c *websocket.Conn, msg map[string]any) {
	t.Helper()
	b, err := json.Marshal(msg)
	require.NoError(t, err)
	send(t, c, websocket.MessageText, string(b))
}

// One code session whose every test sleeps to its time limit does not
// stall another: the code envs' warm interpreters are shared fairly
// between steps. Session A holds as many interpreters as the machine has
// CPUs (at least two), each test sleeping 20 s; session B's step, started
// while they sleep, takes well under a second alone (0.1–0.5 s on a
// shared 2-core machine). With a first-come pool B waited for A's sleeps
// (19.4 s on that machine); the bound of 5 s leaves a wide margin on a
// loaded machine.
func TestCodeSessionsShareThePool(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: a step of this test sleeps 20 s")
	}
	py := codePython(t)
	cfg := remote.Config{OptionCaps: map[string]float64{"timeout": 30, "concurrency": 1024, "max_tests": 1024}}
	if py != "" {
		cfg.AllowOptions = []string{"python"}
	}
	_, url := serve(t, cfg)
	opts := func(extra map[string]any) map[string]any {
		if py != "" {
			extra["python"] = py
		}
		return extra
	}
	held := max(2, runtime.NumCPU())

	// A: the problem with the most tests, up to one per CPU, all run at
	// once (so that A's step ends after one time limit).
	a := rawDial(t, url, nil)
	aOpts := opts(map[string]any{"timeout": 20, "concurrency": held, "max_tests": held})
	best, bestTests := uint64(0), 0
	for seed := range uint64(40) {
		sendJSON(t, a, map[string]any{"type": "reset", "data": map[string]any{"seed": seed, "env_id": "code:sample", "options": aOpts}})
		typ, data := recv(t, a)
		require.Equal(t, "observation", typ, "%v", data)
		n := int(data["observation"].(map[string]any)["info"].(map[string]any)["num_tests"].(float64))
		if n > bestTests {
			best, bestTests = seed, n
		}
	}
	if bestTests < held {
		t.Logf("the largest sample problem has %d tests, fewer than this machine's %d CPUs: A holds %d interpreters", bestTests, held, bestTests)
	}
	sendJSON(t, a, map[string]any{"type": "reset", "data": map[string]any{"seed": best, "env_id": "code:sample", "options": aOpts}})
	typ, data := recv(t, a)
	require.Equal(t, "observation", typ, "%v", data)
	aStart := time.Now()
	sendJSON(t, a, map[string]any{"type": "step", "data": map[string]any{"message": "```python\nimport time\ntime.sleep(60)\n```"}})
	// A's tests take their interpreters at once; a second is ample.
	time.Sleep(time.Second)

	// B: a plain session, default limits.
	b := rawDial(t, url, nil)
	sendJSON(t, b, map[string]any{"type": "reset", "data": map[string]any{"seed": 1, "env_id": "code:sample", "options": opts(map[string]any{})}})
	typ, data = recv(t, b)
	require.Equal(t, "observation", typ, "%v", data)
	bStart := time.Now()
	sendJSON(t, b, map[string]any{"type": "step", "data": map[string]any{"message": "```python\nprint(1)\n```"}})
	typ, data = recvWithin(t, b, 40*time.Second)
	bTook := time.Since(bStart)
	require.Equal(t, "observation", typ, "%v", data)
	assert.Less(t, bTook, 5*time.Second, "B's step waited for A's sleeping tests")
	t.Logf("B's step took %v while A's %d tests slept", bTook, min(held, bestTests))

	// A's step ends at its limit, its tests timed out.
	typ, data = recvWithin(t, a, 40*time.Second)
	require.Equal(t, "observation", typ, "%v", data)
	aTook := time.Since(aStart)
	assert.Greater(t, aTook, 19*time.Second, "A's tests slept to their limit")
	tests := data["observation"].(map[string]any)["info"].(map[string]any)["tests"].([]any)
	assert.Equal(t, "time_limit", tests[0].(map[string]any)["verdict"])
}

// recvWithin is recv with a longer wait (a cancelled read closes the
// connection, so the wait is one read).
func recvWithin(t *testing.T, c *websocket.Conn, d time.Duration) (string, map[string]any) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
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
