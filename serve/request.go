package serve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"strings"
	"sync"

	"github.com/gemgo/gemgo/chat"
)

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
	Model               string          `json:"model"`
	Messages            []messageJSON   `json:"messages"`
	Temperature         *float64        `json:"temperature"`
	TopP                *float64        `json:"top_p"`
	MaxTokens           *int            `json:"max_tokens"`
	MaxCompletionTokens *int            `json:"max_completion_tokens"`
	Stop                stopList        `json:"stop"`
	N                   *int            `json:"n"`
	Seed                *int64          `json:"seed"`
	Stream              bool            `json:"stream"`
	Tools               []toolJSON      `json:"tools"`
	ToolChoice          json.RawMessage `json:"tool_choice"`
	ParallelToolCalls   *bool           `json:"parallel_tool_calls"` // accepted; a text-protocol checkpoint makes one call a message
}

// messageJSON is a message as clients send it: its content a string, null,
// or a list of content parts.
type messageJSON struct {
	Role       string      `json:"role"`
	Content    contentJSON `json:"content"`
	ToolCalls  []callJSON  `json:"tool_calls"`
	ToolCallID string      `json:"tool_call_id"`
}

// contentJSON is a message's text. A list of content parts
// ([{"type": "text", "text": "..."}], as OpenAI's clients send) is read
// as its text parts joined by newlines; any other kind of part (an image,
// audio, a file) is refused with a partError.
type contentJSON string

// partError is a content part this text-only model cannot read.
type partError struct{ msg string }

func (e *partError) Error() string { return e.msg }

func (c *contentJSON) UnmarshalJSON(b []byte) error {
	var s *string
	if json.Unmarshal(b, &s) == nil {
		if s != nil {
			*c = contentJSON(*s)
		}
		return nil
	}
	var parts []struct {
		Type string  `json:"type"`
		Text *string `json:"text"`
	}
	if err := json.Unmarshal(b, &parts); err != nil {
		return &partError{`content: want a string or a list of content parts ([{"type": "text", "text": "..."}])`}
	}
	texts := make([]string, len(parts))
	for i, p := range parts {
		if p.Type != "text" {
			return &partError{fmt.Sprintf(`content part %d has type %q: this model reads text only; send {"type": "text", "text": "..."} parts or a string`, i, p.Type)}
		}
		if p.Text == nil {
			return &partError{fmt.Sprintf(`content part %d: a "text" part needs its "text" string`, i)}
		}
		texts[i] = *p.Text
	}
	*c = contentJSON(strings.Join(texts, "\n"))
	return nil
}

// messages converts the decoded messages for the model: tool calls and
// tool messages become the turns of the checkpoint's text protocol
// (renderHistory), and offered tools add their instructions to the first
// user message (nil: none offered).
func (r *request) messages(ts *toolSet) ([]chat.Message, error) {
	out, err := renderHistory(r.Messages)
	if err != nil {
		return nil, err
	}
	if ts != nil {
		out = withInstructions(out, ts.instructions())
	}
	return out, nil
}

// decodeRequest reads exactly one JSON object from body: trailing bytes
// other than white space (garbage, a second object) are an error.
func decodeRequest(body io.Reader, req *request) error {
	dec := json.NewDecoder(body)
	if err := dec.Decode(req); err != nil {
		return err
	}
	switch _, err := dec.Token(); {
	case err == io.EOF:
		return nil
	case err != nil && !isSyntax(err):
		return err // the body's read failed (too large, too slow)
	}
	return errTrailing
}

var errTrailing = errors.New("the body holds more after its JSON object: send one object")

func isSyntax(err error) bool {
	var se *json.SyntaxError
	return errors.As(err, &se)
}

// jsonMediaType reports whether a Content-Type names JSON: missing (curl
// without -H, many scripts), application/json or an application/*+json
// type, with any parameters.
func jsonMediaType(ct string) bool {
	if ct == "" {
		return true
	}
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		return false
	}
	return mt == "application/json" || (strings.HasPrefix(mt, "application/") && strings.HasSuffix(mt, "+json"))
}

// budget bounds the bytes of request bodies read and decoded at once.
// Decoding a body holds several times its size (the decoder's buffer, the
// strings, the rendered conversation), so without a bound memory grows
// with the number of large requests in flight.
type budget struct {
	mu    sync.Mutex
	total int64
	left  int64
	freed chan struct{} // closed (and replaced) when bytes come back
}

func newBudget(total int64) *budget {
	return &budget{total: total, left: total, freed: make(chan struct{})}
}

// acquire takes n bytes (at most the whole budget, so that any request
// can run alone), waiting until they are free or ctx ends; it returns the
// bytes taken, for release.
func (b *budget) acquire(ctx context.Context, n int64) (int64, error) {
	n = min(n, b.total)
	for {
		b.mu.Lock()
		if b.left >= n {
			b.left -= n
			b.mu.Unlock()
			return n, nil
		}
		freed := b.freed
		b.mu.Unlock()
		select {
		case <-freed:
		case <-ctx.Done():
			return 0, ctx.Err()
		}
	}
}

func (b *budget) release(n int64) {
	b.mu.Lock()
	b.left += n
	close(b.freed)
	b.freed = make(chan struct{})
	b.mu.Unlock()
}
