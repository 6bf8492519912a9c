package serve_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/chat"
	"github.com/gemgo/gemgo/serve"
	"github.com/gemgo/gemgo/tools"
	"github.com/gemgo/gemgo/tools/protocol"
	"github.com/gemgo/gemgo/tools/toolserver"
)

// textModel answers with the text of script and keeps the conversations
// it was given (what a checkpoint would read).
type textModel struct {
	mu     sync.Mutex
	seen   [][]chat.Message
	script func(msgs []chat.Message) string
}

func (m *textModel) Complete(_ context.Context, r chat.Request) (chat.Response, error) {
	m.mu.Lock()
	m.seen = append(m.seen, r.Messages)
	m.mu.Unlock()
	return chat.Response{ID: "r", Choices: []chat.Choice{{Text: m.script(r.Messages), FinishReason: chat.FinishStop}}}, nil
}

func (m *textModel) last() []chat.Message {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.seen[len(m.seen)-1]
}

// mcpFunctions are the tools of cmd/toolserver as an MCP tool lists them.
func mcpFunctions(t *testing.T) (*tools.MCP, []protocol.Function) {
	srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server {
		s, _ := toolserver.New(t.TempDir())
		return s
	}, nil))
	t.Cleanup(srv.Close)
	m, err := tools.NewMCP(tools.MCPConfig{Endpoint: srv.URL, Timeout: 10 * time.Second})
	require.NoError(t, err)
	t.Cleanup(func() { m.Close() })
	return m, m.Functions()
}

func toolParams(fs []protocol.Function) []openai.ChatCompletionToolUnionParam {
	var out []openai.ChatCompletionToolUnionParam
	for _, f := range fs {
		out = append(out, openai.ChatCompletionFunctionTool(openai.FunctionDefinitionParam{
			Name: f.Name, Description: openai.String(f.Description), Parameters: openai.FunctionParameters(f.Parameters)}))
	}
	return out
}

// The openai-go client round-trips tool calls through the server: the
// tools reach the checkpoint as the tool wrapper's instructions, its
// text-protocol call comes back as tool_calls (valid JSON arguments,
// content null, finish_reason tool_calls), and the assistant message and
// the tool message sent back reach it as the turns of the text protocol.
func TestToolCallsRoundTrip(t *testing.T) {
	model := &textModel{script: func(msgs []chat.Message) string {
		switch last := msgs[len(msgs)-1].Content; {
		case strings.HasPrefix(last, "Code execution result: 3"):
			return "Let me check. <tool_call><tool_name>calculate</tool_name><arguments>{\"expression\": \"1+2\"}</arguments></tool_call> ignored"
		case last == "3":
			return `\boxed{3}`
		}
		return "<python>print(1+2)</python>"
	}}
	srv := httptest.NewServer((&serve.Server{Model: model, Name: "tiny"}).Handler())
	defer srv.Close()
	client := openai.NewClient(option.WithBaseURL(srv.URL+"/v1"), option.WithAPIKey("none"), option.WithMaxRetries(0))
	mcpTool, fs := mcpFunctions(t)
	python := protocol.Function{Kind: protocol.KindPython, Name: "python", Description: "run code", Parameters: map[string]any{
		"type": "object", "properties": map[string]any{"code": map[string]any{"type": "string"}}, "required": []any{"code"}}}
	const task = "Compute 1 + 2. Answer in \\boxed{}."
	params := openai.ChatCompletionNewParams{Model: "tiny", Tools: toolParams(append([]protocol.Function{python}, fs...)),
		ToolChoice: openai.ChatCompletionToolChoiceOptionUnionParam{OfAuto: openai.String("auto")},
		Messages:   []openai.ChatCompletionMessageParamUnion{openai.UserMessage(task)}}
	ctx := context.Background()

	// 1. a python call
	resp, err := client.Chat.Completions.New(ctx, params)
	require.NoError(t, err)
	seen := model.last()
	require.Len(t, seen, 1)
	want := task + "\n\n" + protocol.InstructionBlock([]string{protocol.PythonInstructions(0), protocol.MCPInstructions(fs)})
	assert.Equal(t, want, seen[0].Content)
	// that is the prompt the tool wrapper shows for python and this MCP
	// server, but for the "properties": {} that a function's parameters
	// must have and list_files's inputSchema leaves out
	wrapper := task + "\n\n" + protocol.InstructionBlock([]string{protocol.PythonInstructions(0), mcpTool.Instructions()})
	assert.Equal(t, wrapper, strings.Replace(want, `"properties":{},`, "", 1))
	assert.Equal(t, 1, strings.Count(want, `"properties":{},`))
	ch := resp.Choices[0]
	assert.Equal(t, "tool_calls", ch.FinishReason)
	var raw map[string]any
	require.NoError(t, json.Unmarshal([]byte(ch.Message.RawJSON()), &raw))
	assert.Nil(t, raw["content"], "content is null")
	require.Len(t, ch.Message.ToolCalls, 1)
	call := ch.Message.ToolCalls[0]
	assert.True(t, strings.HasPrefix(call.ID, "call_"))
	assert.Equal(t, "function", call.Type)
	assert.Equal(t, "python", call.Function.Name)
	var args map[string]string
	require.NoError(t, json.Unmarshal([]byte(call.Function.Arguments), &args), "valid JSON arguments")
	assert.Equal(t, map[string]string{"code": "print(1+2)"}, args)

	// 2. its result: an MCP call, with text before it
	params.Messages = append(params.Messages, ch.Message.ToParam(), openai.ToolMessage("Code execution result: 3\n", call.ID))
	resp, err = client.Chat.Completions.New(ctx, params)
	require.NoError(t, err)
	seen = model.last()
	require.Len(t, seen, 3)
	assert.Equal(t, []chat.Message{{Role: "user", Content: want}, {Role: "assistant", Content: "<python>print(1+2)</python>"},
		{Role: "user", Content: "Code execution result: 3\n"}}, seen)
	ch = resp.Choices[0]
	assert.Equal(t, "tool_calls", ch.FinishReason)
	assert.Equal(t, "Let me check. ", ch.Message.Content)
	require.Len(t, ch.Message.ToolCalls, 1)
	call2 := ch.Message.ToolCalls[0]
	assert.Equal(t, "calculate", call2.Function.Name)
	assert.Equal(t, `{"expression": "1+2"}`, call2.Function.Arguments, "the arguments as the checkpoint wrote them")
	assert.NotEqual(t, call.ID, call2.ID)

	// 3. the final answer
	params.Messages = append(params.Messages, ch.Message.ToParam(), openai.ToolMessage("3", call2.ID))
	resp, err = client.Chat.Completions.New(ctx, params)
	require.NoError(t, err)
	ch = resp.Choices[0]
	assert.Equal(t, "stop", ch.FinishReason)
	assert.Equal(t, `\boxed{3}`, ch.Message.Content)
	assert.Empty(t, ch.Message.ToolCalls)
	seen = model.last()
	require.Len(t, seen, 5)
	assert.Equal(t, `Let me check. <tool_call><tool_name>calculate</tool_name><arguments>{"expression": "1+2"}</arguments></tool_call>`, seen[3].Content)
	assert.Equal(t, chat.Message{Role: "user", Content: "3"}, seen[4])

	// tool_choice none: no instructions, and a call is plain text
	params.Messages = params.Messages[:1]
	params.ToolChoice = openai.ChatCompletionToolChoiceOptionUnionParam{OfAuto: openai.String("none")}
	resp, err = client.Chat.Completions.New(ctx, params)
	require.NoError(t, err)
	assert.Equal(t, task, model.last()[0].Content)
	assert.Equal(t, "stop", resp.Choices[0].FinishReason)
	assert.Equal(t, "<python>print(1+2)</python>", resp.Choices[0].Message.Content)
	assert.Empty(t, resp.Choices[0].Message.ToolCalls)
}

// Tool requests the server cannot honour are 400s that say why.
func TestToolRequestErrors(t *testing.T) {
	model := &textModel{script: func([]chat.Message) string { return "x" }}
	srv := httptest.NewServer((&serve.Server{Model: model, Name: "tiny"}).Handler())
	defer srv.Close()
	const tool = `"tools":[{"type":"function","function":{"name":"python","parameters":{"type":"object","properties":{"code":{"type":"string"}}}}}]`
	const call = `{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"python","arguments":"{\"code\":\"1\"}"}}]}`
	for _, c := range []struct {
		body, param string
		want        []string
	}{
		{`{"messages":[{"role":"user","content":"x"}],` + tool + `,"tool_choice":"required"}`, "tool_choice", []string{`"none"`, `"auto"`, "required"}},
		{`{"messages":[{"role":"user","content":"x"}],` + tool + `,"tool_choice":{"type":"function","function":{"name":"python"}}}`, "tool_choice", []string{`"none" and "auto"`}},
		{`{"messages":[{"role":"user","content":"x"}],"tools":[{"type":"custom","custom":{"name":"x"}}]}`, "tools", []string{`"custom"`, `"function"`}},
		{`{"messages":[{"role":"user","content":"x"},{"role":"tool","tool_call_id":"c1","content":"r"}]}`, "messages", []string{"must be a response to a preceding message with 'tool_calls'"}},
		{`{"messages":[{"role":"user","content":"x"},` + call + `,{"role":"user","content":"y"}]}`, "messages", []string{"must be followed by tool messages", "c1"}},
		{`{"messages":[{"role":"user","content":"x"},` + call + `,{"role":"tool","tool_call_id":"c2","content":"r"}]}`, "messages", []string{"c1"}},
	} {
		code, m, _ := post(t, srv.URL, c.body)
		require.Equal(t, http.StatusBadRequest, code, c.body)
		e := m["error"].(map[string]any)
		assert.Equal(t, c.param, e["param"], c.body)
		for _, w := range c.want {
			assert.Contains(t, e["message"], w, c.body)
		}
	}
}

// A checkpoint answers a request with tools and tool history: the
// conversation reaches the engine in the text protocol and it answers.
func TestCheckpointWithToolHistory(t *testing.T) {
	srv, _ := newServer(t, chat.EngineConfig{})
	client := openai.NewClient(option.WithBaseURL(srv.URL+"/v1"), option.WithAPIKey("none"), option.WithMaxRetries(0))
	asst := openai.ChatCompletionAssistantMessageParam{ToolCalls: []openai.ChatCompletionMessageToolCallUnionParam{{
		OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{ID: "call_1",
			Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{Name: "python", Arguments: `{"code":"print(5)"}`}}}}}
	resp, err := client.Chat.Completions.New(context.Background(), openai.ChatCompletionNewParams{Model: "tiny",
		Temperature: openai.Float(0), MaxCompletionTokens: openai.Int(8),
		Tools: toolParams([]protocol.Function{{Name: "python", Parameters: map[string]any{"type": "object", "properties": map[string]any{"code": map[string]any{"type": "string"}}}}}),
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage(strings.ReplaceAll(obs, `\\`, `\`)),
			{OfAssistant: &asst}, openai.ToolMessage("Code execution result: 5\n", "call_1")}})
	var apiErr *openai.Error
	require.False(t, errors.As(err, &apiErr), "%v", err)
	require.NoError(t, err)
	require.Len(t, resp.Choices, 1)
	ch := resp.Choices[0]
	assert.Contains(t, []string{"stop", "length", "tool_calls"}, ch.FinishReason)
	assert.Equal(t, ch.FinishReason == "tool_calls", len(ch.Message.ToolCalls) == 1)
	assert.Positive(t, resp.Usage.PromptTokens)
}
