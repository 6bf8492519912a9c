package chat

import (
	"context"
	"errors"
	"fmt"
)

// Roles of a message.
const (
	RoleSystem    = "system"
	RoleUser      = "user"
	RoleAssistant = "assistant"
	// RoleTool is a tool's result, answering one of the tool calls of the
	// assistant message before it (Message.ToolCallID).
	RoleTool = "tool"
)

// Finish reasons of a choice.
const (
	FinishStop   = "stop"   // the model ended its answer (or met a stop string)
	FinishLength = "length" // the answer was cut at the token limit: unfinished
	// FinishToolCalls: the answer is a request to call tools (Choice.ToolCalls).
	FinishToolCalls = "tool_calls"
)

// Message is one message of a conversation.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
	// ToolCalls are the functions an assistant message calls (OpenAI's
	// native function calling); none for a plain answer.
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`
	// ToolCallID is, in a RoleTool message, the ID of the call it answers.
	ToolCallID string `json:"tool_call_id,omitempty"`
}

// ToolCall is one function call of an assistant message.
type ToolCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"` // JSON text as the model wrote it: possibly invalid
}

// Function is a function offered to a model in Request.Tools.
type Function struct {
	Name        string         `json:"name"`
	Description string         `json:"description,omitempty"`
	Parameters  map[string]any `json:"parameters,omitempty"` // a JSON Schema of the arguments object
}

// Request asks a model for the next assistant message.
type Request struct {
	Model    string    // the model name; "" lets a single-model server choose
	Messages []Message // the conversation so far; the last one is the user's
	// Temperature scales the logits; 0 is greedy decoding; nil means the
	// model's default (an Engine's: its run's sample.temperature).
	Temperature *float64
	// TopP is the nucleus mass in (0, 1]; nil or 1 means off.
	TopP *float64
	// MaxTokens bounds the answer's tokens; 0 means the model's default.
	MaxTokens int
	// Stop ends an answer at the first of these strings (not included).
	Stop []string
	// N is the number of choices; 0 means 1.
	N int
	// Seed, when set, makes sampling reproducible (best effort for remote
	// servers; exact for an Engine).
	Seed *int64
	// Tools are the functions the model may call; none for a plain chat.
	Tools []Function
	// ToolChoice is "auto" or "none" ("" sends none: the server's default,
	// auto when Tools are given).
	ToolChoice string
}

// Choice is one answer.
type Choice struct {
	Index        int
	Text         string
	FinishReason string // FinishStop, FinishLength or FinishToolCalls (servers may send others)
	// ToolCalls are the functions the answer calls, in order.
	ToolCalls []ToolCall
}

// Usage counts tokens as the server reports them.
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

// Response is a model's answer to a Request.
type Response struct {
	ID      string
	Model   string
	Choices []Choice
	Usage   Usage
}

// Model answers chat requests. Complete is safe for concurrent use; it
// returns when ctx is done, with ctx's error.
type Model interface {
	Complete(ctx context.Context, req Request) (Response, error)
}

// Errors of an Engine, mapped by a server to HTTP statuses.
var (
	// ErrQueueFull: too many requests are waiting (HTTP 429).
	ErrQueueFull = errors.New("chat: the request queue is full; retry later")
	// ErrClosed: the engine is shut down (HTTP 503).
	ErrClosed = errors.New("chat: the engine is closed")
)

// InvalidError is a request the model cannot serve as asked (HTTP 400).
type InvalidError struct {
	Param string // the request field at fault ("messages", "temperature", ...)
	Msg   string
}

func (e *InvalidError) Error() string { return fmt.Sprintf("%s: %s", e.Param, e.Msg) }

func invalid(param, format string, args ...any) error {
	return &InvalidError{Param: param, Msg: fmt.Sprintf(format, args...)}
}

// Float returns a pointer to v, for Request.Temperature and TopP.
func Float(v float64) *float64 { return &v }

// Int64 returns a pointer to v, for Request.Seed.
func Int64(v int64) *int64 { return &v }
