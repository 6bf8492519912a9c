package serve

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/gemgo/gemgo/chat"
	"github.com/gemgo/gemgo/tools/protocol"
)

// toolJSON is one entry of a request's tools.
type toolJSON struct {
	Type     string        `json:"type"`
	Function chat.Function `json:"function"`
}

// callJSON is one tool call of an assistant message, in a request's
// history or in a response.
type callJSON struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

// Tool choices this server can honour: it has no constrained decoding, so
// it cannot force a call ("required", a named function).
const (
	choiceNone = "none"
	choiceAuto = "auto"
)

// toolChoice reads tool_choice: absent, "none" or "auto".
func toolChoice(raw json.RawMessage) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return choiceAuto, nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil && (s == choiceNone || s == choiceAuto) {
		return s, nil
	}
	return "", fmt.Errorf("tool_choice %s is not supported: the allowed values are \"none\" and \"auto\" (this model cannot be forced to call a function)", clip(string(raw), 100))
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// toolSet is the functions of a request as the checkpoint's text protocol
// has them: python and search as their own tools, every other function
// as a tool of one MCP server, in the order the request lists them.
type toolSet struct {
	funcs []chat.Function
	kinds []string // the tools in wrapper order: each kind once
}

// newToolSet checks the request's tools.
func newToolSet(ts []toolJSON) (*toolSet, error) {
	s := &toolSet{}
	seen := map[string]bool{}
	for i, t := range ts {
		if t.Type != "function" {
			return nil, fmt.Errorf("tools[%d] has type %q: only \"function\" tools are supported", i, t.Type)
		}
		if t.Function.Name == "" {
			return nil, fmt.Errorf("tools[%d].function has no name", i)
		}
		if seen[t.Function.Name] {
			return nil, fmt.Errorf("tools[%d].function: the name %q is given twice", i, t.Function.Name)
		}
		seen[t.Function.Name] = true
		s.funcs = append(s.funcs, t.Function)
		if k := kindOf(t.Function); !slices.Contains(s.kinds, k) {
			s.kinds = append(s.kinds, k)
		}
	}
	return s, nil
}

// kindOf is the text protocol of a function: python's for a function
// named "python" with a "code" parameter, search's for "search" with a
// "query" parameter, MCP's for every other.
func kindOf(f chat.Function) string {
	props, _ := f.Parameters["properties"].(map[string]any)
	switch {
	case f.Name == protocol.KindPython && props["code"] != nil:
		return protocol.KindPython
	case f.Name == protocol.KindSearch && props["query"] != nil:
		return protocol.KindSearch
	}
	return protocol.KindMCP
}

// instructions is the block the tool wrapper appends to the first
// observation: python and search with their tools' default settings, the
// MCP functions listed as the MCP tool lists a server's tools.
func (s *toolSet) instructions() string {
	parts := make([]string, len(s.kinds))
	for i, k := range s.kinds {
		switch k {
		case protocol.KindPython:
			parts[i] = protocol.PythonInstructions(0)
		case protocol.KindSearch:
			parts[i] = protocol.SearchInstructions(protocol.DefaultSearchExample, 3, false)
		default:
			var fs []protocol.Function
			for _, f := range s.funcs {
				if kindOf(f) == protocol.KindMCP {
					fs = append(fs, protocol.Function{Kind: protocol.KindMCP, Name: f.Name, Description: f.Description, Parameters: f.Parameters})
				}
			}
			parts[i] = protocol.MCPInstructions(fs)
		}
	}
	return protocol.InstructionBlock(parts)
}

// parse finds the call in a generated text, as the tool wrapper would:
// the first tool, in order, that parses one. It returns the text before
// the call and the call in the API's form.
func (s *toolSet) parse(text string) (before string, call chat.ToolCall, ok bool) {
	for _, k := range s.kinds {
		c, found := protocol.ParseCall(k, text)
		if !found {
			continue
		}
		call = chat.ToolCall{ID: newCallID(), Name: c.Name, Arguments: c.Input}
		switch k {
		case protocol.KindPython:
			call.Name, call.Arguments = protocol.KindPython, marshal(map[string]string{"code": c.Input})
		case protocol.KindSearch:
			call.Name, call.Arguments = protocol.KindSearch, marshal(map[string]string{"query": c.Input})
		}
		return callStart(k, c), call, true
	}
	return "", chat.ToolCall{}, false
}

// callStart is the text before the call that ends cut: a tag block
// starts at the first opening tag (the tools take the first one), a
// fenced block at the last fence before its content, an MCP call at the
// last <tool_call> (its arguments are JSON, which a model rarely fills
// with that tag).
func callStart(kind string, c protocol.Call) string {
	cut := c.Cut
	i := 0
	switch {
	case kind == protocol.KindPython && !strings.HasSuffix(cut, "</python>"):
		i = strings.LastIndex(cut[:len(cut)-len(c.Input)-3], "```python")
	case kind == protocol.KindPython:
		i = strings.Index(cut, "<python>")
	case kind == protocol.KindSearch:
		i = strings.Index(cut, "<search>")
	default:
		i = strings.LastIndex(cut, "<tool_call>")
	}
	return cut[:max(i, 0)]
}

func marshal(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func newCallID() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return "call_" + hex.EncodeToString(b[:])
}

// callText writes a call of the history in the checkpoint's text
// protocol: python's code and search's query (trimmed, as the search
// tool reads it) from their arguments, every other function as an MCP
// <tool_call> with the arguments as sent, or, when those hold the
// protocol's closing tags, as the same JSON re-encoded (which escapes
// "<").
func callText(c callJSON) (string, error) {
	name, args := c.Function.Name, c.Function.Arguments
	var obj map[string]any
	_ = json.Unmarshal([]byte(args), &obj)
	if s, ok := obj["code"].(string); ok && name == protocol.KindPython {
		return protocol.CallText(protocol.KindPython, "", s)
	}
	if s, ok := obj["query"].(string); ok && name == protocol.KindSearch {
		return protocol.CallText(protocol.KindSearch, "", strings.TrimSpace(s))
	}
	text, err := protocol.CallText(protocol.KindMCP, name, strings.TrimSpace(args))
	if err != nil && obj != nil {
		return protocol.CallText(protocol.KindMCP, name, marshal(obj))
	}
	return text, err
}

// renderHistory turns a history with tool calls into the user/assistant
// turns the checkpoint played: an assistant message with calls is one
// assistant turn per call (the text protocol has one call a message, the
// message's content before the first), each followed by the tool message
// that answers it as the next observation (a user turn). A tool message
// must answer a call of the assistant message before it, and every call
// must be answered.
func renderHistory(ms []messageJSON) ([]chat.Message, error) {
	var out []chat.Message
	for i := 0; i < len(ms); i++ {
		m := ms[i]
		switch {
		case m.Role == chat.RoleTool:
			return nil, fmt.Errorf("message %d: messages with role 'tool' must be a response to a preceding message with 'tool_calls'", i)
		case m.Role != chat.RoleAssistant || len(m.ToolCalls) == 0:
			if len(m.ToolCalls) > 0 {
				return nil, fmt.Errorf("message %d: only assistant messages have tool_calls", i)
			}
			out = append(out, chat.Message{Role: m.Role, Content: string(m.Content)})
			continue
		}
		answers := map[string]string{}
		j := i + 1
		for ; j < len(ms) && ms[j].Role == chat.RoleTool; j++ {
			answers[ms[j].ToolCallID] = string(ms[j].Content)
		}
		if len(answers) != j-i-1 {
			return nil, fmt.Errorf("messages %d to %d: two tool messages answer the same tool_call_id", i+1, j-1)
		}
		for k, c := range m.ToolCalls {
			obs, ok := answers[c.ID]
			if !ok {
				return nil, fmt.Errorf("message %d: an assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id' (%q has none)", i, c.ID)
			}
			delete(answers, c.ID)
			text, err := callText(c)
			if err != nil {
				return nil, fmt.Errorf("message %d, tool_calls[%d]: %v", i, k, err)
			}
			if k == 0 {
				text = string(m.Content) + text
			}
			out = append(out, chat.Message{Role: chat.RoleAssistant, Content: text}, chat.Message{Role: chat.RoleUser, Content: obs})
		}
		if len(answers) > 0 {
			return nil, fmt.Errorf("messages %d to %d: a tool message answers a tool_call_id that message %d did not make", i+1, j-1, i)
		}
		i = j - 1
	}
	return out, nil
}

// withInstructions appends the tools' instructions to the first user
// message (the env's first observation), as the tool wrapper does.
func withInstructions(ms []chat.Message, block string) []chat.Message {
	for i, m := range ms {
		if m.Role == chat.RoleUser {
			ms[i].Content = m.Content + "\n\n" + block
			break
		}
	}
	return ms
}
