package remote_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/builtin"
	"github.com/gemgo/gemgo/envs/remote"
	"github.com/gemgo/gemgo/envs/remote/client"
	"github.com/gemgo/gemgo/envs/remote/wire"
)

func getJSON(t *testing.T, method, url, body string) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	require.NoError(t, err)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(b, &m), "%s", b)
	return resp.StatusCode, m
}

func TestHTTPRoutes(t *testing.T) {
	_, ws := serve(t, remote.Config{})
	base := "http://" + strings.TrimPrefix(ws, "ws://")
	code, m := getJSON(t, "GET", base+"/health", "")
	assert.Equal(t, http.StatusOK, code)
	assert.Equal(t, map[string]any{"status": "healthy"}, m)

	code, m = getJSON(t, "GET", base+"/e/"+guessID+"/metadata", "")
	assert.Equal(t, http.StatusOK, code)
	assert.Equal(t, guessID, m["name"])
	assert.Equal(t, builtin.Registry().Description(guessID), m["description"])
	code, m = getJSON(t, "GET", base+"/e/game:GuessTheNumbr-v0-hard/metadata", "")
	assert.Equal(t, http.StatusNotFound, code)
	assert.Contains(t, m["detail"], "did you mean")

	code, m = getJSON(t, "GET", base+"/schema", "")
	assert.Equal(t, http.StatusOK, code)
	for _, k := range []string{"action", "observation", "state"} {
		assert.Contains(t, m, k)
	}
	code, m = getJSON(t, "GET", base+"/state", "")
	assert.Equal(t, http.StatusOK, code)
	assert.Equal(t, 0.0, m["step_count"])

	// HTTP keeps no episode: /step replays one from its seed and actions,
	// and gives what the env gives in-process.
	local, err := builtin.Registry().Make(guessID)
	require.NoError(t, err)
	obs, _, err := local.Reset(11)
	require.NoError(t, err)
	code, m = getJSON(t, "POST", base+"/e/"+guessID+"/reset", `{"seed": 11}`)
	require.Equal(t, http.StatusOK, code, "%v", m)
	assert.Equal(t, obs, m["observation"].(map[string]any)["text"])
	var earlier []string
	for _, g := range []string{"25", "12", "6"} {
		want, err := local.Step(envs.Boxed(g))
		require.NoError(t, err)
		body, _ := json.Marshal(map[string]any{"seed": 11, "actions": actionList(earlier), "action": map[string]any{"message": envs.Boxed(g)}})
		code, m = getJSON(t, "POST", base+"/e/"+guessID+"/step", string(body))
		require.Equal(t, http.StatusOK, code, "%v", m)
		o := m["observation"].(map[string]any)
		assert.Equal(t, want.Obs, o["text"])
		assert.Equal(t, want.Reward, m["reward"])
		assert.Equal(t, want.Done(), m["done"])
		assert.Equal(t, want.Terminated, o["terminated"])
		earlier = append(earlier, envs.Boxed(g))
		if want.Done() {
			break
		}
	}
	code, m = getJSON(t, "POST", base+"/e/"+guessID+"/step", `{"action": {"message": "x"}}`)
	assert.Equal(t, http.StatusUnprocessableEntity, code)
	assert.Contains(t, m["detail"], "seed")
	code, m = getJSON(t, "POST", base+"/reset", `{"seed": 1}`)
	assert.Equal(t, http.StatusUnprocessableEntity, code, "no env named and no default")
	assert.Equal(t, wire.CodeValidation, m["code"])
	code, _ = getJSON(t, "POST", base+"/reset", `{"seed": 1, "env_id": "game:Nope"}`)
	assert.Equal(t, http.StatusNotFound, code)
	code, m = getJSON(t, "POST", base+"/reset", `not json`)
	assert.Equal(t, http.StatusUnprocessableEntity, code)
	assert.Equal(t, wire.CodeInvalidJSON, m["code"])
	big := bytes.Repeat([]byte("x"), remote.DefaultMaxMessageBytes+1)
	resp, err := http.Post(base+"/reset", "application/json", bytes.NewReader(big))
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusRequestEntityTooLarge, resp.StatusCode)
}

func actionList(as []string) []map[string]any {
	out := []map[string]any{}
	for _, a := range as {
		out = append(out, map[string]any{"message": a})
	}
	return out
}

// The env is chosen by route, by reset data, or by the server's default;
// options come with it.
func TestEnvChoice(t *testing.T) {
	reg := builtin.Registry()
	srv, err := remote.NewServer(reg, remote.Config{DefaultID: "game:Mastermind-v0-easy"})
	require.NoError(t, err)
	url := "ws://" + newLoopback(t, srv)
	for _, tc := range []struct {
		url, id string
		opts    []envs.Option
		want    string
	}{
		{url, "", nil, "game:Mastermind-v0-easy"},
		{url, guessID, nil, guessID},
		{url + "/e/" + guessID, "", nil, guessID},
		{url + "/e/" + guessID + "/ws", guessID, []envs.Option{envs.With("style", "brief")}, guessID},
	} {
		env, err := client.Dial(t.Context(), tc.url, tc.id, tc.opts...)
		require.NoError(t, err, tc.url)
		obs, info, err := env.Reset(1)
		require.NoError(t, err)
		local, err := reg.Make(tc.want, tc.opts...)
		require.NoError(t, err)
		lobs, linfo, err := local.Reset(1)
		require.NoError(t, err)
		assert.Equal(t, lobs, obs, tc.url)
		assert.Equal(t, linfo, info)
		require.NoError(t, env.(interface{ Close() error }).Close())
	}
	_, err = client.Dial(t.Context(), url+"/e/"+guessID, "game:Mastermind-v0-easy")
	assert.ErrorContains(t, err, "differs from the route's env")
	_, err = client.Dial(t.Context(), url, guessID, envs.With("no_such_option", 1))
	assert.ErrorContains(t, err, wire.CodeFactory)
	assert.ErrorContains(t, err, "unknown option no_such_option")
	_, err = client.Dial(t.Context(), url+"/e/game:Sudokuu-v0-easy", "")
	assert.ErrorContains(t, err, "did you mean game:Sudoku-v0-easy")
	_, err = client.Dial(t.Context(), "127.0.0.1:1", guessID)
	assert.ErrorContains(t, err, "want ws://host:port")
	_, err = remote.NewServer(reg, remote.Config{DefaultID: "game:Nope"})
	assert.ErrorContains(t, err, "unknown env id")
}
