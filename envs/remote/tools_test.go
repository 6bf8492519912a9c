package remote_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/builtin"
	"github.com/gemgo/gemgo/envs/envtest"
	"github.com/gemgo/gemgo/envs/remote"
	"github.com/gemgo/gemgo/envs/remote/client"
	"github.com/gemgo/gemgo/envs/remote/wire"
	"github.com/gemgo/gemgo/sandbox"
	"github.com/gemgo/gemgo/tools"
	"github.com/gemgo/gemgo/tools/protocol"
)

// serveTools starts a server that serves python and search tools.
func serveTools(t *testing.T) string {
	t.Helper()
	_, url := serve(t, remote.Config{Tools: remote.ServableTools})
	return url
}

// needPython skips, with the install line, where the sandbox can run no
// Python 3 (the python tool and the code envs run one).
func needPython(t *testing.T) {
	t.Helper()
	if _, _, err := sandbox.PythonFor(sandbox.DefaultPython, sandbox.Detect()); err != nil {
		t.Skipf("the python tool and the code envs need a Python 3 the sandbox can run: %v", err)
	}
}

// dialTools dials id wrapped with specs on the server.
func dialTools(t *testing.T, url, id string, specs []tools.Spec) (envs.Env, error) {
	d := client.Dialer{Tools: specs}
	return d.Dial(context.Background(), url, id)
}

// A tool-wrapped env served remotely passes the conformance suite, with the
// options of the tools package's own conformance test (a tool call has no
// \boxed{}; few episodes where each python call starts a process).
func TestRemoteToolsConform(t *testing.T) {
	url := serveTools(t)
	for _, c := range []struct {
		id    string
		specs []tools.Spec
		opts  []envtest.Option
	}{
		{"qa:Fictional-v0-onehop", []tools.Spec{{Name: protocol.KindSearch, InformationTags: true, TopK: 2}}, nil},
		{"math:Products-v0", []tools.Spec{{Name: "python_tool_no_int_reward", MaxUses: 2}}, []envtest.Option{envtest.Episodes(4), envtest.Mutations(6)}},
	} {
		t.Run(c.id, func(t *testing.T) {
			if c.specs[0].Resolved().Name == protocol.KindPython {
				needPython(t)
			}
			envtest.CheckEnv(t, func() (envs.Env, error) {
				return dialTools(t, url, c.id, c.specs)
			}, append(c.opts, envtest.FreeText())...)
		})
	}
}

// A remote tool-wrapped episode is the in-process one: observations (with
// the tools' instructions and outputs), rewards, flags and Info.
func TestRemoteToolsEqualInProcess(t *testing.T) {
	needPython(t)
	url := serveTools(t)
	reg := builtin.Registry()
	for _, c := range []struct {
		id      string
		specs   []tools.Spec
		actions []string
	}{
		{"math:Products-v0", []tools.Spec{{Name: "python_tool", MaxUses: 2}}, []string{
			"<python>print(6 * 7)</python>", "<python>1/0</python>",
			"<python>print(1)</python> past max_uses: the env's", `\boxed{12}`,
		}},
		{"qa:Fictional-v0-twohop", []tools.Spec{{Name: "search_tool", TopK: 2}}, []string{
			"<search>capital</search>", "<search></search>", `\boxed{nobody}`,
		}},
	} {
		t.Run(c.id, func(t *testing.T) {
			inner, err := reg.Make(c.id)
			require.NoError(t, err)
			local, err := tools.Wrap(inner, c.specs)
			require.NoError(t, err)
			defer local.(interface{ Close() error }).Close()
			far, err := dialTools(t, url, c.id, c.specs)
			require.NoError(t, err)
			defer far.(interface{ Close() error }).Close()
			assert.Equal(t, local.(envs.Describer).Description(), far.(envs.Describer).Description())
			assert.Equal(t, local.(envs.FormatErrorRewarder).FormatErrorReward(), far.(envs.FormatErrorRewarder).FormatErrorReward())
			for seed := range uint64(2) {
				lo, li, err := local.Reset(seed)
				require.NoError(t, err)
				fo, fi, err := far.Reset(seed)
				require.NoError(t, err)
				require.Equal(t, lo, fo)
				require.Equal(t, li, fi)
				toolSteps := 0
				for _, a := range c.actions {
					lst, err := local.Step(a)
					require.NoError(t, err)
					fst, err := far.Step(a)
					require.NoError(t, err)
					require.Equal(t, lst, fst, "seed %d action %q", seed, a)
					if lst.Info[tools.InfoUseTool] == true {
						toolSteps++
					}
					if lst.Done() {
						break
					}
				}
				assert.Equal(t, 2, toolSteps, "the episode used the tool twice (else the test compares no tool output)")
			}
			// Random play (SampleAction draws tool calls too) from one RNG.
			ls, _ := envs.SamplerOf(local)
			fs, ok := envs.SamplerOf(far)
			require.True(t, ok, "the tool-wrapped env samples over the wire")
			rl, rf := newRand(5), newRand(5)
			_, _, err = local.Reset(9)
			require.NoError(t, err)
			_, _, err = far.Reset(9)
			require.NoError(t, err)
			for range 4 {
				la, fa := ls.SampleAction(rl), fs.SampleAction(rf)
				require.Equal(t, la, fa)
				lst, err := local.Step(la)
				require.NoError(t, err)
				fst, err := far.Step(fa)
				require.NoError(t, err)
				require.Equal(t, lst, fst, "action %q", la)
				if lst.Done() {
					break
				}
			}
		})
	}
}

// A bad tool spec answers VALIDATION_ERROR naming the field, and the
// session goes on: the next reset plays.
func TestRemoteToolsValidation(t *testing.T) {
	url := serveTools(t)
	c := rawDial(t, url, nil)
	for _, tc := range []struct{ tools, want string }{
		{`{"name":"python"}`, "tools must be a list"},
		{`[{"name":"pyhton"}]`, `tools[0].name = "pyhton": allowed python, search, mcp`},
		{`[{"name":"python","maxuses":3}]`, `tools[0]: "maxuses": unknown key (allowed: name, max_uses`},
		{`[{"name":"python","max_uses":"3"}]`, `tools[0]: max_uses = "3": want an integer`},
		{`[{"name":"python","max_uses":500}]`, `tools[0].max_uses = 500: allowed [1, 100]`},
		{`[{"name":"python","timeout":5}]`, `tools[0]: timeout = 5: want a duration string`},
		{`[{"name":"search"},{"name":"python","topk":2}]`, `tools[1].topk is a search key, but this tool is python`},
		{`[{"name":"python"},{"name":"python_tool"}]`, `tools[0] and tools[1] are both python tools`},
		{`[{"name":"python","python":"/bin/sh"}]`, `tools[0].python: a client may not set it`},
		{`[{"name":"search","corpus":"/etc/passwd"}]`, `tools[0].corpus: a client may not set it`},
		{`[{"name":"search","url":"http://10.0.0.1/retrieve"}]`, `tools[0].url: a client may not set it`},
		{`[{"name":"mcp","command":["sh"]}]`, `tools[0].name = "mcp": this server serves only python, search tools`},
	} {
		send(t, c, 1, `{"type":"reset","data":{"seed":1,"env_id":"math:Products-v0","tools":`+tc.tools+`}}`)
		typ, data := recv(t, c)
		require.Equal(t, "error", typ, "%s: %v", tc.tools, data)
		assert.Equal(t, wire.CodeValidation, data["code"], "%s", tc.tools)
		assert.Contains(t, data["message"], tc.want, "%s", tc.tools)
	}
	send(t, c, 1, `{"type":"reset","data":{"seed":1,"env_id":"qa:Fictional-v0-onehop","tools":[{"name":"search","topk":1}]}}`)
	typ, data := recv(t, c)
	require.Equal(t, "observation", typ, "%v", data)
	obs := data["observation"].(map[string]any)
	assert.Contains(t, obs["text"], "<search>", "the tools' instructions follow the task")
	send(t, c, 1, `{"type":"step","data":{"message":"<search>capital</search>"}}`)
	typ, data = recv(t, c)
	require.Equal(t, "observation", typ, "%v", data)
	info := data["observation"].(map[string]any)["info"].(map[string]any)
	assert.Equal(t, true, info[tools.InfoUseTool])
	assert.Equal(t, protocol.KindSearch, info[tools.InfoToolType])

	// A reset that names no env, options or tools keeps the tools; one that
	// gives tools: [] drops them.
	send(t, c, 1, `{"type":"reset","data":{"seed":2}}`)
	typ, data = recv(t, c)
	require.Equal(t, "observation", typ, "%v", data)
	assert.Contains(t, data["observation"].(map[string]any)["text"], "<search>")
	send(t, c, 1, `{"type":"reset","data":{"seed":2,"env_id":"qa:Fictional-v0-onehop","tools":[]}}`)
	typ, data = recv(t, c)
	require.Equal(t, "observation", typ, "%v", data)
	assert.NotContains(t, data["observation"].(map[string]any)["text"], "<search>")
}

// A server serves no tools unless its operator allows them; Dial reports
// the server's refusal.
func TestRemoteToolsOffByDefault(t *testing.T) {
	_, url := serve(t, remote.Config{})
	_, err := dialTools(t, url, "math:Products-v0", []tools.Spec{{Name: protocol.KindPython}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "VALIDATION_ERROR")
	assert.Contains(t, err.Error(), "this server serves no tools (its operator allows them with cmd/envserver -tools python,search)")
	env, err := client.Dial(context.Background(), url, "math:Products-v0")
	require.NoError(t, err, "the same server plays the env without tools")
	require.NoError(t, env.(interface{ Close() error }).Close())

	_, err = remote.NewServer(builtin.Registry(), remote.Config{Tools: []string{"mcp"}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "mcp cannot be served")
}

// Over HTTP the tools go in the reset data too: /reset and /step (which
// replays the episode, tool calls included) give the in-process episode.
func TestRemoteToolsHTTP(t *testing.T) {
	url := serveTools(t)
	base := "http://" + strings.TrimPrefix(url, "ws://")
	const id = "qa:Fictional-v0-onehop"
	specs := []tools.Spec{{Name: "search_tool", TopK: 1}}
	inner, err := builtin.Registry().Make(id)
	require.NoError(t, err)
	local, err := tools.Wrap(inner, specs)
	require.NoError(t, err)
	lo, _, err := local.Reset(4)
	require.NoError(t, err)
	lst, err := local.Step("<search>capital</search>")
	require.NoError(t, err)

	data := `"seed":4,"env_id":"` + id + `","tools":[{"name":"search_tool","topk":1}]`
	code, m := getJSON(t, "POST", base+"/reset", "{"+data+"}")
	require.Equal(t, http.StatusOK, code, "%v", m)
	assert.Equal(t, lo, m["observation"].(map[string]any)["text"])
	code, m = getJSON(t, "POST", base+"/step", "{"+data+`,"action":{"message":"<search>capital</search>"}}`)
	require.Equal(t, http.StatusOK, code, "%v", m)
	obs := m["observation"].(map[string]any)
	assert.Equal(t, lst.Obs, obs["text"])
	assert.Equal(t, lst.Reward, m["reward"])
	assert.Equal(t, true, obs["info"].(map[string]any)[tools.InfoUseTool])

	code, m = getJSON(t, "POST", base+"/reset", `{"seed":4,"env_id":"`+id+`","tools":[{"name":"search","topk":99}]}`)
	assert.Equal(t, http.StatusUnprocessableEntity, code)
	assert.Equal(t, wire.CodeValidation, m["code"])
	assert.Contains(t, m["detail"], "tools[0].topk = 99: allowed [1, 50]")

	code, m = getJSON(t, "GET", base+"/metadata", "")
	require.Equal(t, http.StatusOK, code)
	assert.Equal(t, []any{"python", "search"}, m["tools"], "/metadata lists the tools served")
}
