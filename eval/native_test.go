package eval_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/chat"
	"github.com/gemgo/gemgo/envs/builtin"
	"github.com/gemgo/gemgo/eval"
	"github.com/gemgo/gemgo/sandbox"
	"github.com/gemgo/gemgo/serve"
	"github.com/gemgo/gemgo/tools"
	"github.com/gemgo/gemgo/tools/protocol"
	"github.com/gemgo/gemgo/tools/toolserver"
)

// wireCall, wireMsg and wireReq are what an OpenAI-compatible server
// reads of a chat completions request.
type wireCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

type wireMsg struct {
	Role       string     `json:"role"`
	Content    *string    `json:"content"`
	ToolCalls  []wireCall `json:"tool_calls"`
	ToolCallID string     `json:"tool_call_id"`
}

type wireReq struct {
	Messages []wireMsg `json:"messages"`
	Tools    []struct {
		Type     string        `json:"type"`
		Function chat.Function `json:"function"`
	} `json:"tools"`
	ToolChoice any `json:"tool_choice"`
}

func (m wireMsg) text() string {
	if m.Content == nil {
		return ""
	}
	return *m.Content
}

// reply is a scripted answer: text, or calls (name, arguments) with text.
type reply struct {
	text  string
	calls [][2]string
}

// scripted is an OpenAI-compatible server on loopback whose answers
// come from script; it keeps the requests it saw.
type scripted struct {
	mu   sync.Mutex
	reqs []wireReq
	url  string
}

func newScripted(t *testing.T, script func(wireReq) reply) *scripted {
	s := &scripted{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req wireReq
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		s.mu.Lock()
		s.reqs = append(s.reqs, req)
		n := len(s.reqs)
		s.mu.Unlock()
		rep := script(req)
		msg := map[string]any{"role": "assistant", "content": rep.text}
		finish := "stop"
		if len(rep.calls) > 0 {
			var calls []map[string]any
			for i, c := range rep.calls {
				calls = append(calls, map[string]any{"id": fmt.Sprintf("call_%d_%d", n, i), "type": "function",
					"function": map[string]any{"name": c[0], "arguments": c[1]}})
			}
			msg["tool_calls"], finish = calls, "tool_calls"
			if rep.text == "" {
				msg["content"] = nil
			}
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"id": "x", "object": "chat.completion", "created": 0, "model": "scripted",
			"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}},
			"usage":   map[string]any{"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}})
	}))
	t.Cleanup(srv.Close)
	s.url = srv.URL + "/v1"
	return s
}

// toolTexts returns the tool results a conversation holds so far: the
// tool messages (native) or the user messages after the first (text).
func toolTexts(req wireReq, native bool) []string {
	var out []string
	users := 0
	for _, m := range req.Messages {
		switch {
		case native && m.Role == "tool":
			out = append(out, m.text())
		case !native && m.Role == "user":
			if users++; users > 1 {
				out = append(out, m.text())
			}
		}
	}
	return out
}

func firstUser(req wireReq) string {
	for _, m := range req.Messages {
		if m.Role == "user" {
			return m.text()
		}
	}
	return ""
}

var (
	numRE  = regexp.MustCompile(`\d+`)
	bornRE = regexp.MustCompile(`\(born \d+ in (\p{L}+)\)`)
)

// operands are the two numbers of a math:Products-v0 task.
func operands(task string) (string, string) {
	n := numRE.FindAllString(task, 2)
	return n[0], n[1]
}

func boxedLastNumber(s string) string {
	n := numRE.FindAllString(s, -1)
	if len(n) == 0 {
		return `\boxed{0}`
	}
	return `\boxed{` + n[len(n)-1] + `}`
}

func compact(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// parityCase plays the same episodes with a text script and a native
// script that make the same tool calls.
type parityCase struct {
	env    string
	spec   tools.Spec
	text   func(task string, results []string) string
	native func(task string, results []string) reply
	funcs  []string // the function names offered
}

func pythonCase() parityCase {
	return parityCase{env: "math:Products-v0", spec: tools.Spec{Name: "python", MaxUses: 3, ToolReward: 0.05, SuccessReward: 0.25},
		text: func(task string, res []string) string {
			if len(res) == 0 {
				a, b := operands(task)
				return "<python>print(" + a + "*" + b + ")</python>"
			}
			return boxedLastNumber(res[0])
		},
		native: func(task string, res []string) reply {
			a, b := operands(task)
			switch len(res) {
			case 0: // two malformed calls: wrong type, bad JSON
				return reply{calls: [][2]string{{"python", `{"code": 7}`}, {"python", `{"code": "print(1)"`}}}
			case 2:
				return reply{text: "let me compute", calls: [][2]string{{"python", compact(map[string]string{"code": "print(" + a + "*" + b + ")"})}}}
			}
			return reply{text: boxedLastNumber(res[len(res)-1])}
		},
		funcs: []string{"python"}}
}

func searchCase() parityCase {
	query := func(task string) string { q, _, _ := strings.Cut(task, "?"); return q }
	answer := func(res string) string {
		m := bornRE.FindStringSubmatch(res) // "(born 1905 in Lornox)"
		if m == nil {
			return `\boxed{nowhere}`
		}
		return `\boxed{` + m[1] + `}`
	}
	return parityCase{env: "qa:Fictional-v0-onehop", spec: tools.Spec{Name: "search", MaxUses: 2},
		text: func(task string, res []string) string {
			if len(res) == 0 {
				return "<search>" + query(task) + "</search>"
			}
			return answer(res[0])
		},
		native: func(task string, res []string) reply {
			if len(res) == 0 { // spaces around the query: the search tool trims, so does the native call
				return reply{calls: [][2]string{{"search", compact(map[string]string{"query": "  " + query(task) + " "})}}}
			}
			return reply{text: answer(res[0])}
		},
		funcs: []string{"search"}}
}

func mcpCase(endpoint string) parityCase {
	call := func(expr string) string {
		return "<tool_call><tool_name>calculate</tool_name><arguments>" + compact(map[string]string{"expression": expr}) + "</arguments></tool_call>"
	}
	return parityCase{env: "math:Products-v0", spec: tools.Spec{Name: "mcp", Endpoint: endpoint, MaxUses: 3},
		text: func(task string, res []string) string {
			a, b := operands(task)
			switch len(res) {
			case 0:
				return call(a + "*" + b)
			case 1:
				return call(a + "+" + b)
			}
			return boxedLastNumber(res[0])
		},
		native: func(task string, res []string) reply {
			a, b := operands(task)
			if len(res) == 0 { // two calls in one reply, run in order
				return reply{calls: [][2]string{
					{"calculate", compact(map[string]string{"expression": a + "*" + b})},
					{"calculate", compact(map[string]string{"expression": a + "+" + b})}}}
			}
			return reply{text: boxedLastNumber(res[0])}
		},
		funcs: []string{"calculate", "kv_get", "kv_set", "list_files", "read_file", "write_file"}}
}

// skipWithoutPython skips a python case where no Python 3 runs in the
// sandbox.
func skipWithoutPython(t *testing.T, c parityCase) {
	if c.spec.Name != protocol.KindPython {
		return
	}
	if _, _, err := sandbox.PythonFor(sandbox.DefaultPython, sandbox.Detect()); err != nil {
		t.Skipf("the python tool needs a Python 3 the sandbox can run (apt-get install python3): %v", err)
	}
}

// toolServer serves cmd/toolserver's tools over streamable HTTP on
// loopback, a fresh scratch directory per session.
func toolServer(t *testing.T) string {
	root := t.TempDir()
	var mu sync.Mutex
	n := 0
	srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server {
		mu.Lock()
		defer mu.Unlock()
		n++
		d := filepath.Join(root, fmt.Sprint(n))
		if os.Mkdir(d, 0o755) != nil {
			return nil
		}
		s, err := toolserver.New(d)
		if err != nil {
			return nil
		}
		return s
	}, nil))
	t.Cleanup(srv.Close)
	return srv.URL
}

// The native protocol plays the same episodes as the text protocol, with
// the same tool calls reaching the same tools: the env sees the same
// actions, gives the same observations and rewards; the endpoint gets the
// tools as functions, the results as tool messages, and malformed
// arguments answered with an error tool message.
func TestNativeProtocolMatchesText(t *testing.T) {
	py := pythonCase()
	// A minute a call, not the default 5 s: on a loaded machine a sandboxed
	// interpreter's start alone has taken longer, and the timeout's message
	// (no product in it) then differed between the two runs. Both runs
	// quote the same limit in their instructions. (The test through serve
	// keeps the default: serve renders the python function's instructions
	// with it.)
	py.spec.Timeout = time.Minute
	cases := map[string]parityCase{"search": searchCase(), "mcp": mcpCase(toolServer(t)), "python": py}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			skipWithoutPython(t, c)
			play := func(native bool) ([]eval.Record, *scripted) {
				srv := newScripted(t, func(req wireReq) reply {
					task := firstUser(req)
					if native {
						return c.native(task, toolTexts(req, true))
					}
					return reply{text: c.text(task, toolTexts(req, false))}
				})
				cfg := eval.DefaultConfig()
				cfg.Policies, cfg.Envs, cfg.Episodes = []string{"m@" + srv.url}, []string{c.env}, 3
				cfg.EnvOptions, cfg.Tools = map[string]any{"style": "brief"}, []tools.Spec{c.spec}
				cfg.Concurrency, cfg.Resamples, cfg.Retries = 1, 10, 0
				if native {
					cfg.ToolProtocol = eval.ProtocolNative
				}
				dir := t.TempDir()
				md, err := eval.Run(context.Background(), cfg, open(t, cfg), eval.Options{Dir: dir, Registry: builtin.Registry()})
				require.NoError(t, err)
				require.True(t, md.Complete)
				recs := records(t, dir)
				for _, r := range recs {
					require.Empty(t, r.Error)
					require.Equal(t, cfg.EpisodeHash(), r.Settings)
				}
				return recs, srv
			}
			text, _ := play(false)
			native, srv := play(true)
			require.Len(t, native, len(text))
			successes := 0
			for i := range text {
				tr, nr := text[i], native[i]
				require.Equal(t, tr.Seed, nr.Seed)
				assert.Equal(t, tr.Rewards, nr.Rewards, "seed %d", tr.Seed)
				assert.Equal(t, tr.Success, nr.Success, "seed %d", tr.Seed)
				assert.Equal(t, tr.Messages, nr.Messages, "seed %d: the env saw the same actions and gave the same observations", tr.Seed)
				assert.Empty(t, tr.NativeMessages)
				assert.Len(t, nr.FinishReasons, nr.Turns, "one finish reason per turn")
				assert.Equal(t, "stop", nr.FinishReasons[nr.Turns-1])
				for _, f := range nr.FinishReasons[:nr.Turns-1] {
					assert.Equal(t, "tool_calls", f, "a tool step's turn")
				}
				if tr.Success {
					successes++
				}
				// the endpoint's side: the task without the text instructions,
				// each env observation of a call as a tool message
				conv := nr.NativeMessages
				require.NotEmpty(t, conv)
				env := tr.Messages
				assert.True(t, strings.HasPrefix(env[0].Content, conv[0].Content+"\n\n"), "the task, without the instructions")
				assert.NotContains(t, conv[0].Content, "<tools>")
				assert.NotContains(t, conv[0].Content, "<python>")
				var results []string
				ids := map[string]bool{}
				for _, m := range conv {
					for _, tc := range m.ToolCalls {
						ids[tc.ID] = true
					}
					if m.Role == chat.RoleTool {
						assert.True(t, ids[m.ToolCallID], "a tool message answers a call made before it")
						if !strings.HasPrefix(m.Content, "[Tool call error:") {
							results = append(results, m.Content)
						}
					}
				}
				var envObs []string
				for _, m := range env[1 : len(env)-1] { // the last one answers the final answer
					if m.Role == chat.RoleUser {
						envObs = append(envObs, m.Content)
					}
				}
				assert.Equal(t, envObs, results, "seed %d: the tool messages are the env's observations", tr.Seed)
				last := conv[len(conv)-1]
				assert.Equal(t, chat.RoleAssistant, last.Role)
				assert.Empty(t, last.ToolCalls, "a reply without calls ends the turn")
				assert.Equal(t, env[len(env)-2].Content, last.Content, "the final answer went to the env")
				if name == "python" {
					var errs []string
					for _, m := range conv {
						if strings.HasPrefix(m.Content, "[Tool call error:") {
							errs = append(errs, m.Content)
						}
					}
					require.Len(t, errs, 2)
					assert.Contains(t, errs[0], `need a "code" string`)
					assert.Contains(t, errs[1], "are not a JSON object")
				}
			}
			assert.Positive(t, successes, "the scripts solve some episodes, so equal rewards say something")
			// every native request offered the tools as functions, tool_choice auto
			srv.mu.Lock()
			defer srv.mu.Unlock()
			for _, req := range srv.reqs {
				var names []string
				for _, tl := range req.Tools {
					assert.Equal(t, "function", tl.Type)
					assert.Equal(t, "object", tl.Function.Parameters["type"])
					names = append(names, tl.Function.Name)
				}
				assert.Equal(t, c.funcs, names)
				assert.Equal(t, "auto", req.ToolChoice)
			}
		})
	}
}

// The protocol is part of the settings hash: a results directory played
// with one protocol is not resumed with the other; text hashes as a
// config from before the protocol could be chosen.
func TestToolProtocolHashAndValidate(t *testing.T) {
	c := eval.DefaultConfig()
	c.Policies, c.Envs = []string{"m@http://127.0.0.1:1/v1"}, []string{"math:Products-v0"}
	c.Tools = []tools.Spec{{Name: "python"}}
	text := c.EpisodeHash()
	c.ToolProtocol = eval.ProtocolText
	assert.Equal(t, text, c.EpisodeHash(), "text given explicitly hashes as the default")
	require.NoError(t, c.Validate())
	c.ToolProtocol = eval.ProtocolNative
	assert.NotEqual(t, text, c.EpisodeHash())
	require.NoError(t, c.Validate())

	c.ToolProtocol = "json"
	err := c.Validate()
	require.Error(t, err)
	assert.Contains(t, err.Error(), `-tool-protocol = "json": allowed text, native`)
	c.ToolProtocol, c.Tools = eval.ProtocolNative, nil
	err = c.Validate()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "-tool-protocol native without -tool")
}

// A checkpoint reads the text protocol: native is refused for it, with
// the way to get it (cmd/serve and MODEL@URL).
func TestNativeRefusesCheckpoint(t *testing.T) {
	c := eval.DefaultConfig()
	c.ToolProtocol, c.Tools = eval.ProtocolNative, []tools.Spec{{Name: "search"}}
	path := filepath.Join(t.TempDir(), "ck.safetensors")
	require.NoError(t, os.WriteFile(path, []byte("x"), 0o644))
	_, err := eval.OpenPolicy(path, c, eval.DefaultOracles(), "")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "cmd/serve")
}

// textModel is a chat.Model that answers with a text-protocol script and
// keeps every conversation it was given.
type textModel struct {
	mu     sync.Mutex
	seen   [][]chat.Message
	script func(task string, results []string) string
}

func (m *textModel) Complete(_ context.Context, r chat.Request) (chat.Response, error) {
	m.mu.Lock()
	m.seen = append(m.seen, r.Messages)
	m.mu.Unlock()
	var results []string
	for _, msg := range r.Messages[1:] {
		if msg.Role == chat.RoleUser {
			results = append(results, msg.Content)
		}
	}
	task, _, _ := strings.Cut(r.Messages[0].Content, "\n\n")
	return chat.Response{Choices: []chat.Choice{{Text: m.script(task, results), FinishReason: chat.FinishStop}}}, nil
}

// A text-protocol model behind cmd/serve's server, evaluated with the
// native protocol, plays exactly as when evaluated with the text
// protocol: serve renders the functions and the tool history back into
// the same text conversation (for python, token for token) and turns the
// model's text calls into the tool_calls that eval runs.
func TestNativeThroughServeEqualsText(t *testing.T) {
	cases := map[string]parityCase{"mcp": mcpCase(toolServer(t)), "python": pythonCase()}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			skipWithoutPython(t, c)
			play := func(protocol string) ([]eval.Record, [][]chat.Message) {
				model := &textModel{script: c.text}
				srv := httptest.NewServer((&serve.Server{Model: model, Name: "m"}).Handler())
				defer srv.Close()
				cfg := eval.DefaultConfig()
				cfg.Policies, cfg.Envs, cfg.Episodes = []string{"m@" + srv.URL + "/v1"}, []string{c.env}, 3
				cfg.EnvOptions, cfg.Tools, cfg.ToolProtocol = map[string]any{"style": "brief"}, []tools.Spec{c.spec}, protocol
				cfg.Concurrency, cfg.Resamples, cfg.Retries = 1, 10, 0
				dir := t.TempDir()
				_, err := eval.Run(context.Background(), cfg, open(t, cfg), eval.Options{Dir: dir, Registry: builtin.Registry()})
				require.NoError(t, err)
				recs := records(t, dir)
				for _, r := range recs {
					require.Empty(t, r.Error)
				}
				return recs, model.seen
			}
			text, textSeen := play("")
			native, nativeSeen := play(eval.ProtocolNative)
			require.Len(t, native, len(text))
			for i := range text {
				assert.Equal(t, text[i].Rewards, native[i].Rewards, "seed %d", text[i].Seed)
				assert.Equal(t, text[i].Messages, native[i].Messages, "seed %d", text[i].Seed)
				assert.NotEmpty(t, native[i].NativeMessages)
			}
			require.Len(t, nativeSeen, len(textSeen))
			if name == "python" {
				assert.Equal(t, textSeen, nativeSeen, "the model read the same conversations")
			}
		})
	}
}
