package serve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path"
	"strings"
	"time"

	"github.com/gemgo/gemgo/chat"
	"github.com/gemgo/gemgo/internal/httpserve"
)

// maxBody bounds a request body.
const maxBody = 4 << 20

// DefaultDecodeBytes is Server.DecodeBytes's default: 8 bodies of the
// largest size (4 MiB) decoded at once.
const DefaultDecodeBytes = 32 << 20

// minCharge is what a body counts against the decode budget at least.
const minCharge = 4 << 10

// Server answers the OpenAI API subset for one model.
type Server struct {
	Model chat.Model
	Name  string           // the model's id in /v1/models and responses
	Now   func() time.Time // the clock for "created"; nil means time.Now
	// DecodeBytes bounds the request bodies read and decoded at once, in
	// bytes (each counts its Content-Length, or 4 MiB when unknown); a
	// request beyond waits for room. 0 means DefaultDecodeBytes.
	DecodeBytes int64
	// Limits bound connections and slow clients in ListenAndServe; zero
	// values are httpserve's defaults.
	Limits httpserve.Limits
}

// queueFuller is a Model that tells when it would refuse a request for a
// full queue (chat.Engine): the server then answers 429 before reading
// the body.
type queueFuller interface{ QueueFull() bool }

// Handler returns the HTTP handler of s.
func (s *Server) Handler() http.Handler {
	total := s.DecodeBytes
	if total <= 0 {
		total = DefaultDecodeBytes
	}
	b := newBudget(total)
	mux := http.NewServeMux()
	mux.HandleFunc("/v1/chat/completions", func(w http.ResponseWriter, r *http.Request) { s.completions(w, r, b) })
	mux.HandleFunc("/v1/models", s.models)
	mux.HandleFunc("/", notFound)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// ServeMux would redirect a path such as /v1/../v1/models with a
		// plain-text 301 or 307; answer in the API's shape instead.
		if c := cleanPath(r.URL.Path); c != r.URL.Path {
			writeError(w, http.StatusNotFound, "invalid_request_error", "", "not_found",
				fmt.Sprintf("no route %s %q: the path is not in canonical form (%s)", r.Method, r.URL.Path, c))
			return
		}
		mux.ServeHTTP(w, r)
	})
}

func notFound(w http.ResponseWriter, r *http.Request) {
	writeError(w, http.StatusNotFound, "invalid_request_error", "", "not_found",
		fmt.Sprintf("no route %s %s: this server has POST /v1/chat/completions and GET /v1/models", r.Method, r.URL.Path))
}

// cleanPath is p as ServeMux wants it: rooted, without . or .. elements
// or double slashes, keeping a trailing slash.
func cleanPath(p string) string {
	if p == "" || p[0] != '/' {
		p = "/" + p
	}
	c := path.Clean(p)
	if p[len(p)-1] == '/' && c != "/" {
		c += "/"
	}
	return c
}

func (s *Server) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

type choiceJSON struct {
	Index        int        `json:"index"`
	Message      messageOut `json:"message"`
	FinishReason string     `json:"finish_reason"`
	Logprobs     any        `json:"logprobs"`
}

// messageOut is an answer: its content null when it is only a tool call.
type messageOut struct {
	Role      string     `json:"role"`
	Content   *string    `json:"content"`
	ToolCalls []callJSON `json:"tool_calls,omitempty"`
}

// answer is a choice in the API's form: with tools offered, a text that
// holds a call of the checkpoint's text protocol is that call (the text
// before it the content, null when blank) with finish_reason tool_calls.
func answer(c chat.Choice, ts *toolSet) choiceJSON {
	text := c.Text
	out := choiceJSON{Index: c.Index, Message: messageOut{Role: chat.RoleAssistant, Content: &text}, FinishReason: c.FinishReason}
	if ts == nil {
		return out
	}
	before, call, ok := ts.parse(c.Text)
	if !ok {
		return out
	}
	out.Message.Content = nil
	if strings.TrimSpace(before) != "" {
		out.Message.Content = &before
	}
	var cj callJSON
	cj.ID, cj.Type, cj.Function.Name, cj.Function.Arguments = call.ID, "function", call.Name, call.Arguments
	out.Message.ToolCalls = []callJSON{cj}
	out.FinishReason = chat.FinishToolCalls
	return out
}

type responseJSON struct {
	ID      string       `json:"id"`
	Object  string       `json:"object"`
	Created int64        `json:"created"`
	Model   string       `json:"model"`
	Choices []choiceJSON `json:"choices"`
	Usage   chat.Usage   `json:"usage"`
}

func (s *Server) completions(w http.ResponseWriter, r *http.Request, b *budget) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		writeError(w, http.StatusMethodNotAllowed, "invalid_request_error", "", "method_not_allowed", "use POST for /v1/chat/completions")
		return
	}
	// 1. what can be refused before reading the body
	if ce := r.Header.Get("Content-Encoding"); ce != "" && !strings.EqualFold(ce, "identity") {
		writeError(w, http.StatusUnsupportedMediaType, "invalid_request_error", "", "unsupported_content_encoding",
			fmt.Sprintf("Content-Encoding %q is not supported: send the body uncompressed", ce))
		return
	}
	if ct := r.Header.Get("Content-Type"); !jsonMediaType(ct) {
		writeError(w, http.StatusUnsupportedMediaType, "invalid_request_error", "", "unsupported_content_type",
			fmt.Sprintf("Content-Type %q is not supported: send a JSON body with Content-Type: application/json", ct))
		return
	}
	if r.ContentLength > maxBody {
		writeError(w, http.StatusRequestEntityTooLarge, "invalid_request_error", "", "request_too_large", fmt.Sprintf("the body exceeds %d bytes", maxBody))
		return
	}
	if q, ok := s.Model.(queueFuller); ok && q.QueueFull() {
		s.fail(w, r, chat.ErrQueueFull)
		return
	}
	// 2. decode, within the budget of bodies in flight
	charge := int64(maxBody)
	if r.ContentLength >= 0 {
		charge = max(r.ContentLength, minCharge)
	}
	charge, err := b.acquire(r.Context(), charge)
	if err != nil {
		return // the client has gone
	}
	defer b.release(charge)
	var req request
	if err := decodeRequest(http.MaxBytesReader(w, r.Body, maxBody), &req); err != nil {
		var tooBig *http.MaxBytesError
		var part *partError
		switch {
		case errors.As(err, &tooBig):
			writeError(w, http.StatusRequestEntityTooLarge, "invalid_request_error", "", "request_too_large", fmt.Sprintf("the body exceeds %d bytes", maxBody))
		case errors.Is(err, os.ErrDeadlineExceeded):
			writeError(w, http.StatusRequestTimeout, "invalid_request_error", "", "request_timeout", err.Error())
		case errors.As(err, &part):
			writeError(w, http.StatusBadRequest, "invalid_request_error", "messages", "invalid_value", "messages: "+part.msg)
		default:
			writeError(w, http.StatusBadRequest, "invalid_request_error", "", "invalid_json", "the body is not a valid JSON request: "+err.Error())
		}
		return
	}
	if req.Stream {
		writeError(w, http.StatusBadRequest, "invalid_request_error", "stream", "unsupported_parameter", "streaming is not supported: send stream=false")
		return
	}
	choice, err := toolChoice(req.ToolChoice)
	if err != nil {
		writeError(w, http.StatusBadRequest, "invalid_request_error", "tool_choice", "invalid_value", err.Error())
		return
	}
	var ts *toolSet // the offered tools; nil when none (or tool_choice none)
	if len(req.Tools) > 0 {
		if ts, err = newToolSet(req.Tools); err != nil {
			writeError(w, http.StatusBadRequest, "invalid_request_error", "tools", "invalid_value", err.Error())
			return
		}
		if choice == choiceNone {
			ts = nil
		}
	}
	msgs, err := req.messages(ts)
	if err != nil {
		writeError(w, http.StatusBadRequest, "invalid_request_error", "messages", "invalid_value", "messages: "+err.Error())
		return
	}
	cr := chat.Request{Model: req.Model, Messages: msgs, Temperature: req.Temperature, TopP: req.TopP, Stop: req.Stop, Seed: req.Seed}
	switch {
	case req.MaxCompletionTokens != nil:
		cr.MaxTokens = *req.MaxCompletionTokens
	case req.MaxTokens != nil:
		cr.MaxTokens = *req.MaxTokens
	}
	if (req.MaxCompletionTokens != nil && *req.MaxCompletionTokens < 1) || (req.MaxTokens != nil && *req.MaxTokens < 1) {
		writeError(w, http.StatusBadRequest, "invalid_request_error", "max_completion_tokens", "invalid_value", "the token limit must be at least 1")
		return
	}
	if req.N != nil {
		if *req.N < 1 {
			writeError(w, http.StatusBadRequest, "invalid_request_error", "n", "invalid_value", fmt.Sprintf("n = %d: must be at least 1", *req.N))
			return
		}
		cr.N = *req.N
	}
	resp, err := s.Model.Complete(r.Context(), cr)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	out := responseJSON{ID: resp.ID, Object: "chat.completion", Created: s.now().Unix(), Model: resp.Model, Usage: resp.Usage}
	if out.Model == "" {
		out.Model = s.Name
	}
	for _, c := range resp.Choices {
		out.Choices = append(out.Choices, answer(c, ts))
	}
	writeJSON(w, http.StatusOK, out)
}

// fail maps a model error to an OpenAI-shaped error response.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, err error) {
	var inv *chat.InvalidError
	switch {
	case errors.As(err, &inv):
		code := "invalid_value"
		status := http.StatusBadRequest
		if inv.Param == "model" {
			code, status = "model_not_found", http.StatusNotFound
		}
		writeError(w, status, "invalid_request_error", inv.Param, code, inv.Error())
	case errors.Is(err, chat.ErrQueueFull):
		w.Header().Set("Retry-After", "1")
		writeError(w, http.StatusTooManyRequests, "rate_limit_error", "", "rate_limit_exceeded", "the server's request queue is full: retry after a second")
	case errors.Is(err, chat.ErrClosed):
		writeError(w, http.StatusServiceUnavailable, "server_error", "", "shutting_down", "the server is shutting down")
	case r.Context().Err() != nil:
		// the client has gone; nobody reads this
		writeError(w, http.StatusRequestTimeout, "server_error", "", "cancelled", "the request was cancelled")
	default:
		writeError(w, http.StatusInternalServerError, "server_error", "", "internal_error", err.Error())
	}
}

func (s *Server) models(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet {
		w.Header().Set("Allow", http.MethodGet)
		writeError(w, http.StatusMethodNotAllowed, "invalid_request_error", "", "method_not_allowed", "use GET for /v1/models")
		return
	}
	type model struct {
		ID      string `json:"id"`
		Object  string `json:"object"`
		Created int64  `json:"created"`
		OwnedBy string `json:"owned_by"`
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"object": "list",
		"data":   []model{{ID: s.Name, Object: "model", Created: s.now().Unix(), OwnedBy: "gemgo"}},
	})
}

type errorBody struct {
	Error struct {
		Message string  `json:"message"`
		Type    string  `json:"type"`
		Param   *string `json:"param"`
		Code    string  `json:"code"`
	} `json:"error"`
}

func writeError(w http.ResponseWriter, status int, typ, param, code, msg string) {
	var b errorBody
	b.Error.Message, b.Error.Type, b.Error.Code = msg, typ, code
	if param != "" {
		b.Error.Param = &param
	}
	writeJSON(w, status, b)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// ListenAndServe serves s on addr until ctx is done, then shuts down
// gracefully: it stops accepting, lets requests in flight finish (at most
// grace), and returns. ready, when not nil, receives the bound address.
func (s *Server) ListenAndServe(ctx context.Context, addr string, grace time.Duration, ready func(addr string)) error {
	return httpserve.Run(ctx, httpserve.Config{Addr: addr, Handler: s.Handler(), Grace: grace, Ready: ready, Limits: s.Limits})
}
