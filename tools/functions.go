package tools

import (
	"fmt"

	"github.com/gemgo/gemgo/tools/protocol"
)

// FunctionTool is implemented by tools that can describe themselves as
// functions (the three built-in tools).
type FunctionTool interface {
	Functions() []protocol.Function
}

// Functions returns the python tool as one function of a "code" string.
func (p *Python) Functions() []protocol.Function {
	return []protocol.Function{{Kind: protocol.KindPython, Name: protocol.KindPython,
		Description: fmt.Sprintf("Run Python 3 code in a fresh sandbox for at most %v. What it prints (stdout, then stderr) comes back as the result; use print() to see values.", p.cfg.Timeout),
		Parameters: map[string]any{"type": "object", "required": []any{"code"},
			"properties": map[string]any{"code": map[string]any{"type": "string", "description": "the Python program to run"}}}}}
}

// Functions returns the search tool as one function of a "query" string.
func (s *Search) Functions() []protocol.Function {
	return []protocol.Function{{Kind: protocol.KindSearch, Name: protocol.KindSearch,
		Description: fmt.Sprintf("Search a knowledge base; returns the top %d documents, one line each.", s.topK),
		Parameters: map[string]any{"type": "object", "required": []any{"query"},
			"properties": map[string]any{"query": map[string]any{"type": "string", "description": "the words to search for"}}}}}
}

// Functions returns the server's tools, sorted by name, each with its
// input schema as the parameters (see protocol.FunctionSchema).
func (m *MCP) Functions() []protocol.Function {
	out := make([]protocol.Function, len(m.tools))
	for i, t := range m.tools {
		out[i] = protocol.Function{Kind: protocol.KindMCP, Name: t.Name, Description: t.Description, Parameters: protocol.FunctionSchema(t.InputSchema)}
	}
	return out
}

// Functions returns the functions of every tool of the env, in the order
// of its tools; an error names a tool that cannot be offered as functions.
func (w *Env) Functions() ([]protocol.Function, error) {
	var out []protocol.Function
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
	return protocol.InstructionBlock(parts)
}

// Route returns the call that Step would give a tool for action (the
// first tool with uses left that parses one), or false when Step would
// give action to the inner env. It runs nothing.
func (w *Env) Route(action string) (protocol.Call, bool) {
	_, c, ok := w.route(action)
	return c, ok
}
