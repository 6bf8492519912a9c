package openai

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/chat"
)

// completion is the one reply the test server sends.
const completion = `{"id":"c1","object":"chat.completion","created":1,"model":"m-served",
"choices":[{"index":0,"finish_reason":"tool_calls","message":{"role":"assistant","content":"let me add",
"tool_calls":[{"id":"call_1","type":"function","function":{"name":"calc","arguments":"{\"a\":1}"}}]}}],
"usage":{"prompt_tokens":11,"completion_tokens":5,"total_tokens":16}}`

// recorder is a loopback chat completions endpoint that keeps the last
// request body.
func recorder(t *testing.T) (*httptest.Server, *map[string]any) {
	var got map[string]any
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/chat/completions" {
			http.NotFound(w, r)
			return
		}
		b, _ := io.ReadAll(r.Body)
		got = nil
		if err := json.Unmarshal(b, &got); err != nil {
			t.Errorf("request body %q: %v", b, err)
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, completion)
	}))
	t.Cleanup(srv.Close)
	return srv, &got
}

// A request goes out in OpenAI's wire format (each role, an assistant's
// tool calls, the tools, the sampling settings) and the reply comes back
// as a chat.Response.
func TestCompleteWireFormat(t *testing.T) {
	srv, got := recorder(t)
	c, err := New(Config{BaseURL: srv.URL + "/v1", Model: "m", Timeout: 10 * time.Second, Retries: -1})
	require.NoError(t, err)
	req := chat.Request{
		Model: "ignored",
		Messages: []chat.Message{
			{Role: chat.RoleSystem, Content: "be brief"},
			{Role: chat.RoleUser, Content: "1+1?"},
			{Role: chat.RoleAssistant, ToolCalls: []chat.ToolCall{{ID: "call_0", Name: "calc", Arguments: `{"a":1}`}}},
			{Role: chat.RoleTool, Content: "2", ToolCallID: "call_0"},
		},
		Tools:       []chat.Function{{Name: "calc", Description: "adds", Parameters: map[string]any{"type": "object", "properties": map[string]any{}}}},
		ToolChoice:  "auto",
		Temperature: chat.Float(0),
		MaxTokens:   7,
		Stop:        []string{"\n\n", "END"},
		Seed:        chat.Int64(3),
	}
	resp, err := c.Complete(context.Background(), req)
	require.NoError(t, err)

	want := map[string]any{
		"model": "m",
		"messages": []any{
			map[string]any{"role": "system", "content": "be brief"},
			map[string]any{"role": "user", "content": "1+1?"},
			map[string]any{"role": "assistant", "tool_calls": []any{map[string]any{"id": "call_0", "type": "function",
				"function": map[string]any{"name": "calc", "arguments": `{"a":1}`}}}},
			map[string]any{"role": "tool", "content": "2", "tool_call_id": "call_0"},
		},
		"tools": []any{map[string]any{"type": "function", "function": map[string]any{"name": "calc", "description": "adds",
			"parameters": map[string]any{"type": "object", "properties": map[string]any{}}}}},
		"tool_choice":           "auto",
		"temperature":           0.0,
		"max_completion_tokens": 7.0,
		"stop":                  []any{"\n\n", "END"},
		"seed":                  3.0,
	}
	assert.Equal(t, want, *got)

	assert.Equal(t, chat.Response{ID: "c1", Model: "m-served",
		Choices: []chat.Choice{{Index: 0, Text: "let me add", FinishReason: "tool_calls",
			ToolCalls: []chat.ToolCall{{ID: "call_1", Name: "calc", Arguments: `{"a":1}`}}}},
		Usage: chat.Usage{PromptTokens: 11, CompletionTokens: 5, TotalTokens: 16}}, resp)
}

// LegacyMaxTokens sends the limit under its old name, and one stop string
// goes as a string.
func TestCompleteLegacyMaxTokens(t *testing.T) {
	srv, got := recorder(t)
	c, err := New(Config{BaseURL: srv.URL + "/v1", Model: "m", LegacyMaxTokens: true, Retries: -1})
	require.NoError(t, err)
	_, err = c.Complete(context.Background(), chat.Request{Messages: []chat.Message{{Role: chat.RoleUser, Content: "hi"}}, MaxTokens: 9, Stop: []string{"END"}})
	require.NoError(t, err)
	assert.Equal(t, 9.0, (*got)["max_tokens"])
	assert.NotContains(t, *got, "max_completion_tokens")
	assert.Equal(t, "END", (*got)["stop"])
}

// Bad input is refused before anything is sent, naming what is wrong.
func TestOpenAIErrors(t *testing.T) {
	_, err := New(Config{Model: "m"})
	assert.ErrorContains(t, err, "no base URL")
	_, err = New(Config{BaseURL: "http://127.0.0.1:1/v1"})
	assert.ErrorContains(t, err, "no model name")

	srv, got := recorder(t)
	c, err := New(Config{BaseURL: srv.URL + "/v1", Model: "m", Retries: -1})
	require.NoError(t, err)
	_, err = c.Complete(context.Background(), chat.Request{Messages: []chat.Message{{Role: "narrator", Content: "x"}}})
	var inv *chat.InvalidError
	require.True(t, errors.As(err, &inv), "%v", err)
	assert.Equal(t, "messages", inv.Param)
	assert.Nil(t, *got, "nothing was sent")
}
