package eval

import (
	"bytes"
	"context"
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/gemgo/gemgo/chat"
	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/tools"
	"github.com/gemgo/gemgo/tools/protocol"
)

// Tool protocols of an evaluation (Config.ToolProtocol).
const (
	// ProtocolText: the tools are described in the prompt and called in
	// their text formats (<python>, <search>, <tool_call>), as in training.
	ProtocolText = "text"
	// ProtocolNative: the tools are offered as OpenAI functions (tools[])
	// and called with the reply's tool_calls.
	ProtocolNative = "native"
)

// maxNameLen is the longest function name OpenAI accepts.
const maxNameLen = 64

// validName reports whether s is a function name OpenAI accepts:
// ^[a-zA-Z0-9_-]{1,64}$.
func validName(s string) bool {
	if s == "" || len(s) > maxNameLen {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// openAINames gives each name a distinct function name in OpenAI's
// alphabet, out[i] for names[i]. A valid name keeps itself unless an
// earlier one took it; any other name has its other characters replaced
// by "_", and one that is then too long or taken gets a suffix of 8 hex
// digits of its SHA-1 (cut to fit 64 characters), then "_2", "_3", … until
// free. The result depends only on names and their order.
func openAINames(names []string) []string {
	out := make([]string, len(names))
	taken := map[string]bool{}
	for i, n := range names { // 1. valid names claim themselves, first come first served
		if validName(n) && !taken[n] {
			out[i], taken[n] = n, true
		}
	}
	for i, n := range names { // 2. the rest, in order
		if out[i] != "" {
			continue
		}
		base := sanitize(n)
		if len(base) > maxNameLen || taken[base] {
			sum := sha1.Sum([]byte(n))
			suffix := "_" + hex.EncodeToString(sum[:4])
			base = base[:min(len(base), maxNameLen-len(suffix))] + suffix
		}
		alias := base
		for k := 2; taken[alias]; k++ {
			tail := "_" + strconv.Itoa(k)
			alias = base[:min(len(base), maxNameLen-len(tail))] + tail
		}
		out[i], taken[alias] = alias, true
	}
	return out
}

// sanitize replaces every byte outside [a-zA-Z0-9_-] by "_" ("f" for an
// empty name).
func sanitize(s string) string {
	if s == "" {
		return "f"
	}
	b := []byte(s)
	for i, c := range b {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-') {
			b[i] = '_'
		}
	}
	return string(b)
}

// callInput turns a native call's arguments into the content of the tool
// call f's tool parses from text: python's "code" string, search's
// "query" string (trimmed, as the search tool trims), or an MCP tool's
// arguments object as compact JSON ("" means {}). An error says what is
// wrong with the arguments, for the model.
func callInput(f protocol.Function, args string) (string, error) {
	obj, err := argumentsObject(args)
	if err != nil {
		return "", fmt.Errorf("the arguments of %s %w", f.Name, err)
	}
	switch f.Kind {
	case protocol.KindPython, protocol.KindSearch:
		key := map[string]string{protocol.KindPython: "code", protocol.KindSearch: "query"}[f.Kind]
		raw, ok := obj[key]
		var s string
		if !ok || json.Unmarshal(raw, &s) != nil {
			return "", fmt.Errorf(`the arguments of %s need a %q string: {"%s": "..."}`, f.Name, key, key)
		}
		if f.Kind == protocol.KindSearch {
			s = strings.TrimSpace(s)
		}
		return s, nil
	default:
		b, err := json.Marshal(obj) // compact, keys sorted; HTML-escaped, so no "<" can close a tag
		if err != nil {
			return "", fmt.Errorf("the arguments of %s: %w", f.Name, err)
		}
		return string(b), nil
	}
}

// argumentsObject decodes a JSON object, keeping its values' text.
func argumentsObject(args string) (map[string]json.RawMessage, error) {
	if strings.TrimSpace(args) == "" {
		return map[string]json.RawMessage{}, nil
	}
	var obj map[string]json.RawMessage
	dec := json.NewDecoder(strings.NewReader(args))
	if err := dec.Decode(&obj); err != nil || obj == nil {
		return nil, fmt.Errorf("are not a JSON object: %q", clip(args, 200))
	}
	if dec.More() {
		return nil, fmt.Errorf("hold more than one JSON value: %q", clip(args, 200))
	}
	for k, v := range obj { // compact each value, so the text is canonical
		var b bytes.Buffer
		if err := json.Compact(&b, v); err != nil {
			return nil, fmt.Errorf("are not a JSON object: %q", clip(args, 200))
		}
		obj[k] = b.Bytes()
	}
	return obj, nil
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// callError is the tool message for a native call that cannot be run.
func callError(err error) string { return "[Tool call error: " + err.Error() + "]" }

// maxLocalErrors bounds the model's replies in one Act whose calls all
// failed before reaching a tool (bad arguments, unknown names): after
// that many, the last reply's text goes to the env.
const maxLocalErrors = 8

// nativeActor plays one episode with native function calling: it offers
// the env's tools as functions, turns each call of a reply into the text
// the env's tool wrapper parses (one env step each, in order), answers
// it with a tool message holding the observation, and sends a reply
// without calls to the env as the answer. Its conversation, the one the
// endpoint sees, is Transcript.
type nativeActor struct {
	p     *ChatPolicy
	env   toolHost
	funcs []protocol.Function
	defs  []chat.Function
	byAPI map[string]int // API name → index in funcs
	instr string         // the wrapper's instruction block, cut from the first observation

	conv     []chat.Message
	pending  []pendingCall
	awaiting *pendingCall // the call whose text was the last action
}

type pendingCall struct {
	id     string
	action string // the call in the text protocol; "" when err is set
	err    error  // why the call cannot be run
}

// toolHost is what native calling needs of the env's tools: the tool
// wrapper (*tools.Env), or an env that calls tools itself (the mcp:* envs
// of envs/mcptask). Functions lists them; Instructions is the block that
// ends the first observation (cut from it, since the functions replace
// it); Route reports the call Step would run for a text action.
type toolHost interface {
	Functions() ([]protocol.Function, error)
	Instructions() string
	Route(action string) (protocol.Call, bool)
}

var _ toolHost = (*tools.Env)(nil)

// newNativeActor finds the tool wrapper (or an env with tools of its own)
// in env and its functions.
func newNativeActor(p *ChatPolicy, env envs.Env) (*nativeActor, error) {
	var w toolHost
	for e := env; e != nil; {
		if t, ok := e.(toolHost); ok {
			w = t
			break
		}
		u, ok := e.(envs.Wrapper)
		if !ok {
			break
		}
		e = u.Unwrap()
	}
	if w == nil {
		return nil, errors.New("-tool-protocol native: the env has no tools; give -tool")
	}
	funcs, err := w.Functions()
	if err != nil {
		return nil, fmt.Errorf("-tool-protocol native: %w", err)
	}
	names := make([]string, len(funcs))
	for i, f := range funcs {
		names[i] = f.Name
	}
	a := &nativeActor{p: p, env: w, funcs: funcs, byAPI: map[string]int{}, instr: w.Instructions()}
	for i, n := range openAINames(names) {
		a.byAPI[n] = i
		a.defs = append(a.defs, chat.Function{Name: n, Description: funcs[i].Description, Parameters: funcs[i].Parameters})
	}
	return a, nil
}

// Transcript is the conversation as the endpoint saw it (tool calls and
// tool messages included), for results.jsonl.
func (a *nativeActor) Transcript() []chat.Message { return a.conv }

func (a *nativeActor) Act(ctx context.Context, msgs []chat.Message, rng *rand.Rand) (Turn, error) {
	// 1. take in the observation of the last step
	if len(msgs) == 0 {
		return Turn{}, errors.New("no messages")
	}
	obs := msgs[len(msgs)-1].Content
	switch {
	case a.conv == nil:
		for _, m := range msgs[:len(msgs)-1] {
			a.conv = append(a.conv, chat.Message{Role: m.Role, Content: m.Content})
		}
		// the tools are offered as functions, not described in the prompt
		a.conv = append(a.conv, chat.Message{Role: chat.RoleUser, Content: strings.TrimSuffix(obs, "\n\n"+a.instr)})
	case a.awaiting != nil:
		a.conv = append(a.conv, chat.Message{Role: chat.RoleTool, ToolCallID: a.awaiting.id, Content: obs})
		a.awaiting = nil
	default:
		a.conv = append(a.conv, chat.Message{Role: chat.RoleUser, Content: obs})
	}
	var turn Turn
	for replies := 0; ; {
		// 2. the next call of the last reply, if any
		for len(a.pending) > 0 {
			c := a.pending[0]
			a.pending = a.pending[1:]
			if c.err != nil {
				a.conv = append(a.conv, chat.Message{Role: chat.RoleTool, ToolCallID: c.id, Content: callError(c.err)})
				continue
			}
			a.awaiting = &c
			turn.Action = c.action
			if turn.FinishReason == "" { // a later call of an earlier reply: still that reply's tool_calls
				turn.FinishReason = chat.FinishToolCalls
			}
			return turn, nil
		}
		// 3. a new reply
		if replies == maxLocalErrors {
			return turn, nil // the last reply's text (or "")
		}
		replies++
		req := a.p.Request
		req.Messages, req.Tools, req.ToolChoice = a.conv, a.defs, "auto"
		if req.Temperature == nil || *req.Temperature > 0 {
			req.Seed = chat.Int64(int64(rng.Uint64() >> 1))
		}
		resp, err := a.p.Model.Complete(ctx, req)
		if err != nil {
			return Turn{}, err
		}
		if len(resp.Choices) == 0 {
			return Turn{}, errors.New("the model answered with no choices")
		}
		ch := resp.Choices[0]
		turn.FinishReason = ch.FinishReason
		turn.PromptTokens += resp.Usage.PromptTokens
		turn.CompletionTokens += resp.Usage.CompletionTokens
		a.conv = append(a.conv, chat.Message{Role: chat.RoleAssistant, Content: ch.Text, ToolCalls: ch.ToolCalls})
		if len(ch.ToolCalls) == 0 { // the answer
			turn.Action = ch.Text
			if a.p.RequireFinish && ch.FinishReason == chat.FinishLength {
				turn.Action = ""
			}
			return turn, nil
		}
		turn.Action = ch.Text
		for _, tc := range ch.ToolCalls {
			a.pending = append(a.pending, a.prepare(tc))
		}
	}
}

// prepare checks one native call and writes it in the text protocol.
func (a *nativeActor) prepare(tc chat.ToolCall) pendingCall {
	pc := pendingCall{id: tc.ID}
	i, ok := a.byAPI[tc.Name]
	if !ok {
		names := make([]string, len(a.defs))
		for j, d := range a.defs {
			names[j] = d.Name
		}
		pc.err = fmt.Errorf("unknown function %q: the functions are %s", tc.Name, strings.Join(names, ", "))
		return pc
	}
	f := a.funcs[i]
	input, err := callInput(f, tc.Arguments)
	if err != nil {
		pc.err = err
		return pc
	}
	text, err := protocol.CallText(f.Kind, mcpName(f), input)
	if err != nil {
		pc.err = err
		return pc
	}
	// the wrapper gives the text to the first tool with uses left that
	// parses it: it must be this one (a tool out of uses lets it through
	// to the env, as the text protocol does)
	if c, ok := a.env.Route(text); ok && (c.Tool != f.Kind || c.Name != mcpName(f) || c.Input != input) {
		pc.err = fmt.Errorf("the %s call's content would be taken for a %s call: rewrite it without that tool's tags", f.Name, c.Tool)
		return pc
	}
	pc.action = text
	return pc
}

// mcpName is the name a text call of f carries: the MCP tool name, none
// for python and search.
func mcpName(f protocol.Function) string {
	if f.Kind == protocol.KindMCP {
		return f.Name
	}
	return ""
}
