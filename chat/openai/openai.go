package openai

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/gemgo/gemgo/chat"
)

// Config says how to reach an OpenAI-compatible server.
type Config struct {
	BaseURL string        // e.g. https://api.openai.com/v1 or http://127.0.0.1:8000/v1
	Model   string        // the model name sent with every request
	APIKey  string        // sent as a bearer token; local servers ignore it
	Timeout time.Duration // per attempt; 0 means 60 s
	Retries int           // retries after the first attempt (429, 5xx, timeouts, connection errors); <0 means 0
	// LegacyMaxTokens sends the token limit as max_tokens (the deprecated
	// name older servers want) instead of max_completion_tokens.
	LegacyMaxTokens bool
	HTTPClient      *http.Client // optional
}

// Client is a chat.Model behind an OpenAI-compatible chat completions
// endpoint, called with the official client (github.com/openai/openai-go/v3):
// it retries 408, 409, 429, 5xx and connection errors with the server's
// Retry-After(-Ms) delay, else an exponential backoff (0.5 s · 2^n, at
// most 8 s, with jitter), and bounds every attempt by Timeout.
type Client struct {
	cfg    Config
	client sdk.Client
}

var _ chat.Model = (*Client)(nil)

// New returns a client for cfg. The base URL and key are the
// caller's (cmd/eval reads OPENAI_API_KEY).
func New(cfg Config) (*Client, error) {
	if cfg.BaseURL == "" {
		return nil, errors.New("openai: no base URL (e.g. http://127.0.0.1:8000/v1)")
	}
	if cfg.Model == "" {
		return nil, errors.New("openai: no model name")
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 60 * time.Second
	}
	cfg.Retries = max(cfg.Retries, 0)
	key := cfg.APIKey
	if key == "" {
		key = "none" // local servers need no key; the client wants one
	}
	opts := []option.RequestOption{
		option.WithBaseURL(cfg.BaseURL), option.WithAPIKey(key),
		option.WithMaxRetries(cfg.Retries), option.WithRequestTimeout(cfg.Timeout),
	}
	if cfg.HTTPClient != nil {
		opts = append(opts, option.WithHTTPClient(cfg.HTTPClient))
	}
	// These come after the client's defaults (which read OPENAI_BASE_URL
	// and OPENAI_API_KEY), so the caller's choice wins.
	return &Client{cfg: cfg, client: sdk.NewClient(opts...)}, nil
}

// Complete sends req (its Model is replaced by the configured one).
func (o *Client) Complete(ctx context.Context, req chat.Request) (chat.Response, error) {
	p := sdk.ChatCompletionNewParams{Model: o.cfg.Model}
	for _, m := range req.Messages {
		switch m.Role {
		case chat.RoleSystem:
			p.Messages = append(p.Messages, sdk.SystemMessage(m.Content))
		case chat.RoleUser:
			p.Messages = append(p.Messages, sdk.UserMessage(m.Content))
		case chat.RoleAssistant:
			if len(m.ToolCalls) == 0 {
				p.Messages = append(p.Messages, sdk.AssistantMessage(m.Content))
				break
			}
			a := sdk.ChatCompletionAssistantMessageParam{}
			if m.Content != "" {
				a.Content.OfString = sdk.String(m.Content)
			}
			for _, c := range m.ToolCalls {
				a.ToolCalls = append(a.ToolCalls, sdk.ChatCompletionMessageToolCallUnionParam{
					OfFunction: &sdk.ChatCompletionMessageFunctionToolCallParam{ID: c.ID,
						Function: sdk.ChatCompletionMessageFunctionToolCallFunctionParam{Name: c.Name, Arguments: c.Arguments}}})
			}
			p.Messages = append(p.Messages, sdk.ChatCompletionMessageParamUnion{OfAssistant: &a})
		case chat.RoleTool:
			p.Messages = append(p.Messages, sdk.ToolMessage(m.Content, m.ToolCallID))
		default:
			return chat.Response{}, &chat.InvalidError{Param: "messages", Msg: fmt.Sprintf("role %q: want system, user, assistant or tool", m.Role)}
		}
	}
	for _, f := range req.Tools {
		def := sdk.FunctionDefinitionParam{Name: f.Name}
		if f.Description != "" {
			def.Description = sdk.String(f.Description)
		}
		if f.Parameters != nil {
			def.Parameters = sdk.FunctionParameters(f.Parameters)
		}
		p.Tools = append(p.Tools, sdk.ChatCompletionFunctionTool(def))
	}
	if req.ToolChoice != "" {
		p.ToolChoice.OfAuto = sdk.String(req.ToolChoice)
	}
	if req.Temperature != nil {
		p.Temperature = sdk.Float(*req.Temperature)
	}
	if req.TopP != nil {
		p.TopP = sdk.Float(*req.TopP)
	}
	if req.MaxTokens > 0 {
		if o.cfg.LegacyMaxTokens {
			p.MaxTokens = sdk.Int(int64(req.MaxTokens))
		} else {
			p.MaxCompletionTokens = sdk.Int(int64(req.MaxTokens))
		}
	}
	switch len(req.Stop) {
	case 0:
	case 1:
		p.Stop.OfString = sdk.String(req.Stop[0])
	default:
		p.Stop.OfStringArray = req.Stop
	}
	if req.N > 1 {
		p.N = sdk.Int(int64(req.N))
	}
	if req.Seed != nil {
		p.Seed = sdk.Int(*req.Seed)
	}
	c, err := o.client.Chat.Completions.New(ctx, p)
	if err != nil {
		return chat.Response{}, fmt.Errorf("%s at %s: %w", o.cfg.Model, o.cfg.BaseURL, err)
	}
	if len(c.Choices) == 0 {
		return chat.Response{}, fmt.Errorf("%s at %s: the response has no choices", o.cfg.Model, o.cfg.BaseURL)
	}
	resp := chat.Response{ID: c.ID, Model: c.Model, Usage: chat.Usage{
		PromptTokens: int(c.Usage.PromptTokens), CompletionTokens: int(c.Usage.CompletionTokens), TotalTokens: int(c.Usage.TotalTokens),
	}}
	for _, ch := range c.Choices {
		c := chat.Choice{Index: int(ch.Index), Text: ch.Message.Content, FinishReason: ch.FinishReason}
		for _, tc := range ch.Message.ToolCalls {
			c.ToolCalls = append(c.ToolCalls, chat.ToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: tc.Function.Arguments})
		}
		resp.Choices = append(resp.Choices, c)
	}
	return resp, nil
}
