package remote_test

import (
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/remote"
	"github.com/gemgo/gemgo/envs/remote/client"
)

// pythonWithWebsockets finds a python3 that imports websockets, or skips.
func pythonWithWebsockets(t *testing.T) string {
	t.Helper()
	for _, p := range []string{"python3", "/usr/bin/python3"} {
		path, err := exec.LookPath(p)
		if err != nil {
			continue
		}
		if exec.Command(path, "-c", "import websockets").Run() == nil {
			return path
		}
	}
	t.Skip("no python3 with the websockets package: apt-get install python3-websockets")
	return ""
}

// runPython runs a script of examples/python and decodes its JSON output.
func runPython(t *testing.T, py string, args ...string) map[string]any {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	script := filepath.Join("..", "..", "examples", "python", args[0])
	out, err := exec.CommandContext(ctx, py, append([]string{script}, args[1:]...)...).Output()
	if ee, ok := err.(*exec.ExitError); ok {
		t.Fatalf("%s: %v\n%s", script, err, ee.Stderr)
	}
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(out, &m), "%s", out)
	return m
}

// goEpisode plays the episode with the Go client.
func goEpisode(t *testing.T, url, id string, seed uint64, actions []string) (obs []any, rewards []any) {
	t.Helper()
	env, err := client.Dial(context.Background(), url, id)
	require.NoError(t, err)
	defer env.(interface{ Close() error }).Close()
	o, _, err := env.Reset(seed)
	require.NoError(t, err)
	obs = append(obs, o)
	for _, a := range actions {
		st, err := env.Step(a)
		require.NoError(t, err)
		obs, rewards = append(obs, st.Obs), append(rewards, st.Reward)
		if st.Done() {
			break
		}
	}
	return obs, rewards
}

// The Python client (standard library + websockets) plays an episode and
// sees what the Go client sees; the TRL and RL2 shims total the same
// rewards.
func TestPythonClient(t *testing.T) {
	py := pythonWithWebsockets(t)
	_, url := serve(t, remote.Config{})
	actions := []string{envs.Boxed("25"), envs.Boxed("12"), envs.Boxed("37"), "no box here"}
	got := runPython(t, py, append([]string{"gemgo_client.py", "--url", url, "--env", guessID, "--seed", "11"}, actions...)...)
	obs, rewards := goEpisode(t, url, guessID, 11, actions)
	assert.Equal(t, obs, got["observations"])
	assert.Equal(t, rewards, got["rewards"])
	assert.Equal(t, []any{false, false, false, true}, got["terminated"], "the format error terminates")
	assert.Equal(t, 7.0, got["max_turns"])
	state := got["state"].(map[string]any)
	assert.Equal(t, 4.0, state["step_count"])

	moves := []string{envs.Boxed("5"), envs.Boxed("3"), envs.Boxed("8"), envs.Boxed("1")}
	_, want := goEpisode(t, url, "game:GuessTheNumber-v0-easy", 7, moves)
	total := 0.0
	for _, r := range want {
		total += r.(float64)
	}
	trl := runPython(t, py, append([]string{"trl_env.py", "--url", url, "--seed", "7"}, moves...)...)
	assert.Equal(t, []any{total}, trl["rewards"])
	rl2 := runPython(t, py, append([]string{"rl2_env.py", "--url", url, "--seed", "7"}, moves...)...)
	assert.Equal(t, want, rl2["rewards"])
	assert.Equal(t, trl["done"], rl2["done"])
}
