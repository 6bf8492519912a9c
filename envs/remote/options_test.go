package remote_test

import (
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/builtin"
	"github.com/gemgo/gemgo/envs/remote"
)

// secret is the content of the files a client tries to read through env
// options; no error may quote it.
const secret = "hunter: sekritclue"

// secretFiles writes a file of each shape the file options read (JSONL
// records, a word list, "word: clue" lines) holding secret, readable only
// by its owner, as a root-only file would be.
func secretFiles(t *testing.T) map[string]string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"jsonl": `{"question": "` + secret + `", "answer": "1", "answers": ["1"], "tests": [{"input": "", "output": "1"}]}` + "\n",
		"words": "hunter\nsekrit\ncrane\nslate\nplumb\n",
		"clues": secret + "\nother: clue\n",
	}
	paths := map[string]string{}
	for name, body := range files {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(body), 0o600))
		paths[name] = p
	}
	return paths
}

// refusedResets are resets that a default server refuses, each with what
// its error must say: a program of the client's choosing (the first is
// the reset that opens a chain to running code as the server's user: a
// solution under isolation netns writes a script, and a second reset names
// it as python), a weaker sandbox, the server's files, and resources past
// the caps.
func refusedResets(t *testing.T) []struct {
	data map[string]any
	want string
} {
	files := secretFiles(t)
	script := filepath.Join(t.TempDir(), "e.sh")
	marker := script + ".ran"
	// A "python" that leaves a marker when anything runs it (FindPython
	// runs the program it is given to read its version).
	require.NoError(t, os.WriteFile(script, []byte("#!/bin/sh\ntouch "+marker+"\necho 3\n"), 0o755))
	t.Cleanup(func() {
		_, err := os.Stat(marker)
		assert.True(t, os.IsNotExist(err), "the server ran the client's program %s", script)
	})
	type reset = struct {
		data map[string]any
		want string
	}
	code := func(opts map[string]any) map[string]any {
		return map[string]any{"seed": 1, "env_id": "code:sample", "options": opts}
	}
	return []reset{
		{code(map[string]any{"isolation": "netns", "python": "/usr/bin/python3"}), "option python: a client of this server may not set it: it names the program the server runs solutions with; remove it (its operator lets clients set it with cmd/envserver -allow-option python)"},
		{code(map[string]any{"python": script}), "option python: a client of this server may not set it"},
		{code(map[string]any{"isolation": "none"}), "option isolation: a client of this server may not set it: it weakens or chooses the sandbox"},
		{code(map[string]any{"fresh_process": true}), "option fresh_process: a client of this server may not set it"},
		{map[string]any{"env_id": "code:jsonl", "options": map[string]any{"path": files["jsonl"]}}, "option path: a client of this server may not set it: it names a file on the server"},
		{map[string]any{"env_id": "math:jsonl", "options": map[string]any{"path": files["jsonl"]}}, "option path: a client of this server may not set it: it names a file on the server"},
		{map[string]any{"env_id": "qa:jsonl", "options": map[string]any{"path": files["jsonl"]}}, "option path: a client of this server may not set it: it names a file on the server"},
		{map[string]any{"env_id": "qa:jsonl", "options": map[string]any{"path": "/etc/shadow"}}, "option path: a client of this server may not set it"},
		{map[string]any{"env_id": "game:Wordle-v0-hard", "options": map[string]any{"word_file": files["words"]}}, "option word_file: a client of this server may not set it: it names a file on the server"},
		{map[string]any{"env_id": "game:Crosswords-v0-easy", "options": map[string]any{"clue_file": files["clues"]}}, "option clue_file: a client of this server may not set it: it names a file on the server"},
		{map[string]any{"env_id": "game:Crosswords-v0-hard", "options": map[string]any{"clue_file": "/etc/shadow"}}, "option clue_file: a client of this server may not set it"},
		{code(map[string]any{"memory_mb": 1 << 20}), "option memory_mb = 1048576 is above this server's cap of 1024 for its clients (its operator sets the cap with cmd/envserver -option-cap memory_mb=N)"},
		{code(map[string]any{"timeout": 600}), "option timeout = 600 is above this server's cap of 10 for its clients"},
		{code(map[string]any{"concurrency": 256}), "option concurrency = 256 is above this server's cap of 4 for its clients"},
		{code(map[string]any{"max_tests": 10000}), "option max_tests = 10000 is above this server's cap of 50 for its clients"},
		{code(map[string]any{"output_kb": 1 << 20}), "option output_kb = 1048576 is above this server's cap of 1024 for its clients"},
	}
}

// A default server refuses every option that names a program or file of
// the server, weakens the sandbox, or asks for more than the caps, over
// the WebSocket: a VALIDATION_ERROR that names the option and the
// operator's flag, quotes nothing of the files, and leaves the session
// playing. A reset naming a script as python runs nothing (the script
// would leave a marker).
func TestClientOptionsRefusedWS(t *testing.T) {
	_, url := serve(t, remote.Config{})
	c := rawDial(t, url, nil)
	for _, tc := range refusedResets(t) {
		b, err := json.Marshal(map[string]any{"type": "reset", "data": tc.data})
		require.NoError(t, err)
		send(t, c, websocket.MessageText, string(b))
		typ, data := recv(t, c)
		require.Equal(t, "error", typ, "%v: %v", tc.data, data)
		assert.Equal(t, "VALIDATION_ERROR", data["code"], "%v", data["message"])
		msg, _ := data["message"].(string)
		assert.Contains(t, msg, tc.want)
		assert.NotContains(t, msg, "hunter")
		assert.NotContains(t, msg, "sekrit")
		// The refused reset made no env: a step has nothing to play.
		send(t, c, websocket.MessageText, `{"type":"step","data":{"message":"`+"```python\\nprint(1)\\n```"+`"}}`)
		wantError(t, c, "EXECUTION_ERROR")
	}
	playGuess(t, url, 3)
	send(t, c, websocket.MessageText, `{"type":"reset","data":{"seed":2,"env_id":"game:Wordle-v0-easy","options":{"style":"brief","max_turns":9}}}`)
	typ, data := recv(t, c)
	assert.Equal(t, "observation", typ, "content options stay the client's: %v", data)
}

// The same resets over HTTP, POST /reset and POST /step: 422 with the
// same message.
func TestClientOptionsRefusedHTTP(t *testing.T) {
	_, ws := serve(t, remote.Config{})
	base := "http://" + strings.TrimPrefix(ws, "ws://")
	for _, tc := range refusedResets(t) {
		body, err := json.Marshal(tc.data)
		require.NoError(t, err)
		status, m := getJSON(t, "POST", base+"/reset", string(body))
		assert.Equal(t, http.StatusUnprocessableEntity, status, "%v", m)
		assert.Equal(t, "VALIDATION_ERROR", m["code"])
		assert.Contains(t, m["detail"], tc.want)
		assert.NotContains(t, m["detail"], "sekrit")

		step := map[string]any{"seed": 1, "action": map[string]any{"message": "```python\nprint(1)\n```"}}
		for k, v := range tc.data {
			step[k] = v
		}
		body, err = json.Marshal(step)
		require.NoError(t, err)
		status, m = getJSON(t, "POST", base+"/step", string(body))
		assert.Equal(t, http.StatusUnprocessableEntity, status, "%v", m)
		assert.Contains(t, m["detail"], tc.want)
	}
}

// An operator who allows a server-only option (-allow-option word_file)
// or raises a cap (-option-cap timeout=30) lets clients use it; the
// other options stay refused.
func TestOperatorAllowsOptions(t *testing.T) {
	files := secretFiles(t)
	_, url := serve(t, remote.Config{AllowOptions: []string{"word_file", "path"}, OptionCaps: map[string]float64{"timeout": 30}})
	c := rawDial(t, url, nil)
	send(t, c, websocket.MessageText, `{"type":"reset","data":{"seed":1,"env_id":"game:Wordle-v0-hard","options":{"word_file":"`+files["words"]+`"}}}`)
	typ, data := recv(t, c)
	require.Equal(t, "observation", typ, "%v", data)
	send(t, c, websocket.MessageText, `{"type":"reset","data":{"seed":1,"env_id":"qa:jsonl","options":{"path":"`+files["jsonl"]+`"}}}`)
	typ, data = recv(t, c)
	require.Equal(t, "observation", typ, "%v", data)
	obs := data["observation"].(map[string]any)
	assert.Contains(t, obs["text"], secret, "the operator let clients read this file")

	// The raised cap admits 30 s and refuses more, naming the new cap.
	send(t, c, websocket.MessageText, `{"type":"reset","data":{"seed":1,"env_id":"code:sample","options":{"timeout":31}}}`)
	typ, data = recv(t, c)
	require.Equal(t, "error", typ)
	assert.Contains(t, data["message"], "option timeout = 31 is above this server's cap of 30")
	send(t, c, websocket.MessageText, `{"type":"reset","data":{"seed":1,"env_id":"code:sample","options":{"timeout":30}}}`)
	typ, data = recv(t, c)
	if typ == "error" { // no python3 the sandbox runs: the env, not the option, failed
		assert.Equal(t, "FACTORY_ERROR", data["code"], "%v", data["message"])
		assert.NotContains(t, data["message"], "option timeout")
	}
	send(t, c, websocket.MessageText, `{"type":"reset","data":{"seed":1,"env_id":"code:sample","options":{"python":"/usr/bin/python3"}}}`)
	wantError(t, c, "VALIDATION_ERROR")
}

func TestBadOptionCaps(t *testing.T) {
	for _, v := range []float64{0, -1, math.NaN(), math.Inf(1)} {
		_, err := remote.NewServer(builtin.Registry(), remote.Config{OptionCaps: map[string]float64{"timeout": v}})
		require.Error(t, err)
		assert.Contains(t, err.Error(), `Config.OptionCaps["timeout"]`)
	}
}

// The options a client may not set, over every built-in env, are exactly
// those that name the server's files or programs or choose its sandbox. A
// new free-text option is refused to clients until its env declares it
// (envs.Options.ServerOnly or Content), and this test names it then, so
// that opening it to clients is a decision.
func TestServerOnlyOptionsOfBuiltins(t *testing.T) {
	reg := builtin.Registry()
	refused := map[string]map[string]bool{} // option → ids
	for _, id := range reg.IDs() {
		var base []envs.Option
		if strings.HasSuffix(id, ":jsonl") || id == "terminal:dir" || id == "mcp:dir" {
			base = append(base, envs.With("path", filepath.Join(t.TempDir(), "none.jsonl")))
		}
		// The unknown-option error lists every option the env reads.
		_, err := reg.Make(id, append(base, envs.With("zz_probe", 1))...)
		require.Error(t, err, id)
		_, list, ok := strings.Cut(err.Error(), "(valid options: ")
		require.True(t, ok, "%s: %v", id, err)
		for _, name := range strings.Split(strings.TrimSuffix(list, ")"), ", ") {
			_, err := reg.MakeForClient(id, envs.ClientPolicy{}, envs.With(name, "x"))
			var ce *envs.ClientOptionError
			if errors.As(err, &ce) && !ce.Resource {
				require.Equal(t, name, ce.Name)
				if refused[name] == nil {
					refused[name] = map[string]bool{}
				}
				refused[name][id] = true
			}
		}
	}
	names := make([]string, 0, len(refused))
	for n := range refused {
		names = append(names, n)
	}
	slices.Sort(names)
	assert.Equal(t, []string{"clue_file", "data_dir", "fresh_process", "isolation", "path", "python", "server", "word_file"}, names)
	evalIDs := map[string]bool{}
	for _, id := range reg.IDs() {
		if strings.HasPrefix(id, "eval:") {
			evalIDs[id] = true
		}
	}
	assert.Len(t, evalIDs, 14)
	assert.Equal(t, evalIDs, refused["data_dir"], "data_dir names a directory of the server")
	assert.Equal(t, map[string]bool{"code:jsonl": true, "math:jsonl": true, "qa:jsonl": true, "terminal:dir": true, "mcp:dir": true}, refused["path"])
	assert.Equal(t, map[string]bool{"code:jsonl": true, "code:sample": true, "terminal:dir": true, "terminal:sample": true}, refused["python"])
	assert.Equal(t, map[string]bool{"code:jsonl": true, "code:sample": true, "terminal:dir": true, "terminal:sample": true, "mcp:dir": true, "mcp:files-sample": true}, refused["isolation"])
	assert.Equal(t, map[string]bool{"mcp:dir": true, "mcp:files-sample": true}, refused["server"], "server names the filesystem MCP server's program")
}
