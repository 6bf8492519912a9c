package tools

import (
	"encoding/json"
	"fmt"
	"maps"
	"strings"
	"time"
)

// Function is one callable function of a tool, as a native function
// calling API (OpenAI's tools[]) offers it. Python and search are one
// function each, named after their kind; an MCP tool is one function per
// server tool.
type Function struct {
	Kind        string         // the tool kind that runs it: KindPython, KindSearch or KindMCP
	Name        string         // the tool's own name: "python", "search", or the MCP server's tool name
	Description string         // what it does, for the model
	Parameters  map[string]any // a JSON Schema of the arguments object (type object, with properties)
}

// FunctionTool is implemented by tools that can describe themselves as
// functions (the three built-in tools).
type FunctionTool interface {
	Functions() []Function
}

// Functions returns the python tool as one function of a "code" string.
func (p *Python) Functions() []Function {
	return []Function{{Kind: KindPython, Name: KindPython,
		Description: fmt.Sprintf("Run Python 3 code in a fresh sandbox for at most %v. What it prints (stdout, then stderr) comes back as the result; use print() to see values.", p.cfg.Timeout),
		Parameters: map[string]any{"type": "object", "required": []any{"code"},
			"properties": map[string]any{"code": map[string]any{"type": "string", "description": "the Python program to run"}}}}}
}

// Functions returns the search tool as one function of a "query" string.
func (s *Search) Functions() []Function {
	return []Function{{Kind: KindSearch, Name: KindSearch,
		Description: fmt.Sprintf("Search a knowledge base; returns the top %d documents, one line each.", s.topK),
		Parameters: map[string]any{"type": "object", "required": []any{"query"},
			"properties": map[string]any{"query": map[string]any{"type": "string", "description": "the words to search for"}}}}}
}

// Functions returns the server's tools, sorted by name, each with its
// input schema as the parameters (see FunctionSchema).
func (m *MCP) Functions() []Function {
	out := make([]Function, len(m.tools))
	for i, t := range m.tools {
		out[i] = Function{Kind: KindMCP, Name: t.Name, Description: t.Description, Parameters: FunctionSchema(t.InputSchema)}
	}
	return out
}

// FunctionSchema turns an MCP tool's inputSchema into a function's
// parameters: the schema itself, every keyword kept, with "type": "object"
// and "properties" added when missing (MCP does not require properties,
// OpenAI does). A schema that is not a JSON object (nil, or any other
// value) is the empty object schema. The input is not modified.
func FunctionSchema(inputSchema any) map[string]any {
	var s map[string]any
	switch x := inputSchema.(type) {
	case map[string]any:
		s = maps.Clone(x)
	case nil:
	default: // a typed schema (jsonschema.Schema): through its JSON
		if b, err := json.Marshal(x); err == nil {
			_ = json.Unmarshal(b, &s)
		}
	}
	if s == nil {
		s = map[string]any{}
	}
	if _, ok := s["type"]; !ok {
		s["type"] = "object"
	}
	if _, ok := s["properties"]; !ok {
		s["properties"] = map[string]any{}
	}
	return s
}

// Functions returns the functions of every tool of the env, in the order
// of its tools; an error names a tool that cannot be offered as functions.
func (w *Env) Functions() ([]Function, error) {
	var out []Function
	for _, b := range w.tools {
		f, ok := b.tool.(FunctionTool)
		if !ok {
			return nil, fmt.Errorf("the %s tool (%T) has no function form for native function calling", b.kind, b.tool)
		}
		out = append(out, f.Functions()...)
	}
	return out, nil
}

// Instructions returns the block Reset appends to the inner env's first
// observation, after a blank line: the tools' instructions.
func (w *Env) Instructions() string {
	parts := make([]string, len(w.tools))
	for i, b := range w.tools {
		parts[i] = b.tool.Instructions()
	}
	return InstructionBlock(parts)
}

// InstructionBlock joins the instructions of several tools as the wrapper
// shows them: "Available tools:" first when there are more than one, a
// blank line between.
func InstructionBlock(parts []string) string {
	var b strings.Builder
	if len(parts) > 1 {
		b.WriteString("Available tools:\n\n")
	}
	b.WriteString(strings.Join(parts, "\n\n"))
	return b.String()
}

// Route returns the call that Step would give a tool for action (the
// first tool with uses left that parses one), or false when Step would
// give action to the inner env. It runs nothing.
func (w *Env) Route(action string) (Call, bool) {
	_, c, ok := w.route(action)
	return c, ok
}

// PythonInstructions is the python tool's instructions for a timeout
// (≤ 0: the default 5 s).
func PythonInstructions(timeout time.Duration) string {
	if timeout <= 0 {
		timeout = 5 * time.Second
	}
	return fmt.Sprintf("You can run Python code: write it inside <python>...</python> (or a ```python fenced block). "+
		"The code runs in a fresh sandbox for at most %v; what it prints comes back as the next observation. "+
		"Use print() to see results. One code block per message.", timeout)
}

// SearchInstructions is the search tool's instructions for an example
// query, the number of documents returned and whether the results come in
// <information> tags.
func SearchInstructions(example string, topK int, informationTags bool) string {
	where := "The results come back as the next observation."
	if informationTags {
		where = "The results come back between <information> and </information>."
	}
	return fmt.Sprintf("You can search a knowledge base: write a query inside <search>...</search>, for example <search>%s</search>. "+
		"The search returns the top %d documents. %s One search per message.", example, topK, where)
}

// DefaultSearchExample is the example query of a search tool given no
// example titles.
const DefaultSearchExample = "capital city"

// MCPInstructions lists functions as the MCP tool's instructions do: one
// JSON function definition per line inside <tools></tools>, then how to
// call one.
func MCPInstructions(fs []Function) string {
	defs := make([]functionDef, len(fs))
	for i, f := range fs {
		defs[i] = functionDef{f.Name, f.Description, f.Parameters}
	}
	return toolsBlock(defs)
}

type functionDef struct {
	name, description string
	parameters        any
}

func toolsBlock(defs []functionDef) string {
	var b strings.Builder
	b.WriteString("You can call the following tools, given as JSON function definitions:\n<tools>\n")
	for _, d := range defs {
		def, _ := json.Marshal(map[string]any{"type": "function", "function": map[string]any{
			"name": d.name, "description": d.description, "parameters": d.parameters}})
		b.Write(def)
		b.WriteByte('\n')
	}
	b.WriteString("</tools>\nCall one tool per message, as\n" +
		`<tool_call><tool_name>NAME</tool_name><arguments>{"name": "value"}</arguments></tool_call>` +
		"\nwith the arguments as a JSON object. The tool's result comes back as the next observation.")
	return b.String()
}

// ParseCall parses the first call of kind in action, as that kind of
// tool does (Tool.Parse).
func ParseCall(kind, action string) (Call, bool) {
	switch kind {
	case KindPython:
		return (&Python{}).Parse(action)
	case KindSearch:
		return (&Search{}).Parse(action)
	case KindMCP:
		return (&MCP{}).Parse(action)
	}
	return Call{}, false
}

// CallText writes a call in its tool's text protocol: the action that the
// tool parses back to the same call (ParseCall(kind, text) gives name and
// input back), or an error when no text of that protocol can hold input.
// MCP arguments are written as given (callers pass JSON).
func CallText(kind, name, input string) (string, error) {
	var text string
	switch kind {
	case KindPython:
		text = "<python>" + input + "</python>"
		if strings.Contains(input, "</python>") {
			text = fence + "python\n" + input + fence
		}
	case KindSearch:
		text = "<search>" + input + "</search>"
	case KindMCP:
		text = "<tool_call><tool_name>" + name + "</tool_name><arguments>" + input + "</arguments></tool_call>"
	default:
		return "", fmt.Errorf("no text protocol for tool kind %q", kind)
	}
	c, ok := ParseCall(kind, text)
	if !ok || c.Name != name || c.Input != input || c.Cut != text {
		return "", fmt.Errorf("the %s call cannot be written in the text protocol the tool parses (its content holds the protocol's own closing tags)", kind)
	}
	return text, nil
}
