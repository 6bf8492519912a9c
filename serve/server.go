package serve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/gemgo/gemgo/chat"
	"github.com/gemgo/gemgo/internal/httpserve"
)

// maxBody bounds a request body.
const maxBody = 4 << 20

// Server answers the OpenAI API subset for one model.
type Server struct {
	Model chat.Model
	Name  string           // the model's id in /v1/models and responses
	Now   func() time.Time // the clock for "created"; nil means time.Now
}

// Handler returns the HTTP handler of s.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/v1/chat/completions", s.completions)
	mux.HandleFunc("/v1/models", s.models)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "invalid_request_error", "", "not_found",
			fmt.Sprintf("no route %s %s: this server has POST /v1/chat/completions and GET /v1/models", r.Method, r.URL.Path))
	})
	return mux
}

func (s *Server) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// stopList decodes "stop" given as a string or a list of strings.
type stopList []string

func (l *stopList) UnmarshalJSON(b []byte) error {
	var one string
	if err := json.Unmarshal(b, &one); err == nil {
		*l = stopList{one}
		return nil
	}
	var many []string
	if err := json.Unmarshal(b, &many); err != nil {
		return errors.New("stop: want a string or a list of strings")
	}
	*l = many
	return nil
}

// request is the body of POST /v1/chat/completions (the fields used).
type request struct {
	Model               string         `json:"model"`
	Messages            []chat.Message `json:"messages"`
	Temperature         *float64       `json:"temperature"`
	TopP                *float64       `json:"top_p"`
	MaxTokens           *int           `json:"max_tokens"`
	MaxCompletionTokens *int           `json:"max_completion_tokens"`
	Stop                stopList       `json:"stop"`
	N                   *int           `json:"n"`
	Seed                *int64         `json:"seed"`
	Stream              bool           `json:"stream"`
	Tools               []any          `json:"tools"`
}

type choiceJSON struct {
	Index        int          `json:"index"`
	Message      chat.Message `json:"message"`
	FinishReason string       `json:"finish_reason"`
	Logprobs     any          `json:"logprobs"`
}

type responseJSON struct {
	ID      string       `json:"id"`
	Object  string       `json:"object"`
	Created int64        `json:"created"`
	Model   string       `json:"model"`
	Choices []choiceJSON `json:"choices"`
	Usage   chat.Usage   `json:"usage"`
}

func (s *Server) completions(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		writeError(w, http.StatusMethodNotAllowed, "invalid_request_error", "", "method_not_allowed", "use POST for /v1/chat/completions")
		return
	}
	var req request
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxBody))
	if err := dec.Decode(&req); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			writeError(w, http.StatusRequestEntityTooLarge, "invalid_request_error", "", "request_too_large", fmt.Sprintf("the body exceeds %d bytes", maxBody))
			return
		}
		writeError(w, http.StatusBadRequest, "invalid_request_error", "", "invalid_json", "the body is not a valid JSON request: "+err.Error())
		return
	}
	if req.Stream {
		writeError(w, http.StatusBadRequest, "invalid_request_error", "stream", "unsupported_parameter", "streaming is not supported: send stream=false")
		return
	}
	if len(req.Tools) > 0 {
		writeError(w, http.StatusBadRequest, "invalid_request_error", "tools", "unsupported_parameter", "tools are not supported by this model")
		return
	}
	cr := chat.Request{Model: req.Model, Messages: req.Messages, Temperature: req.Temperature, TopP: req.TopP, Stop: req.Stop, Seed: req.Seed}
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
		out.Choices = append(out.Choices, choiceJSON{Index: c.Index, Message: chat.Message{Role: chat.RoleAssistant, Content: c.Text}, FinishReason: c.FinishReason})
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
	return httpserve.Run(ctx, httpserve.Config{Addr: addr, Handler: s.Handler(), Grace: grace, Ready: ready})
}
