package protocol

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// The instruction texts, byte for byte: a checkpoint trained on these
// prompts reads them again when it is served or evaluated.
func TestInstructionTexts(t *testing.T) {
	assert.Equal(t, "You can run Python code: write it inside <python>...</python> (or a ```python fenced block). The code runs in a fresh sandbox for at most 5s; what it prints comes back as the next observation. Use print() to see results. One code block per message.",
		PythonInstructions(0))
	assert.Equal(t, "You can run Python code: write it inside <python>...</python> (or a ```python fenced block). The code runs in a fresh sandbox for at most 3s; what it prints comes back as the next observation. Use print() to see results. One code block per message.",
		PythonInstructions(3*time.Second))
	assert.Equal(t, "You can search a knowledge base: write a query inside <search>...</search>, for example <search>capital city</search>. The search returns the top 3 documents. The results come back between <information> and </information>. One search per message.",
		SearchInstructions(DefaultSearchExample, 3, true))
	assert.Equal(t, "You can search a knowledge base: write a query inside <search>...</search>, for example <search>river</search>. The search returns the top 2 documents. The results come back as the next observation. One search per message.",
		SearchInstructions("river", 2, false))
	fs := []Function{
		{Kind: KindMCP, Name: "calc", Description: "adds", Parameters: map[string]any{"type": "object", "properties": map[string]any{"a": map[string]any{"type": "integer"}}}},
		{Kind: KindMCP, Name: "z"},
	}
	assert.Equal(t, "You can call the following tools, given as JSON function definitions:\n<tools>\n"+
		`{"function":{"description":"adds","name":"calc","parameters":{"properties":{"a":{"type":"integer"}},"type":"object"}},"type":"function"}`+"\n"+
		`{"function":{"description":"","name":"z","parameters":null},"type":"function"}`+"\n"+
		"</tools>\nCall one tool per message, as\n"+
		`<tool_call><tool_name>NAME</tool_name><arguments>{"name": "value"}</arguments></tool_call>`+"\n"+
		"with the arguments as a JSON object. The tool's result comes back as the next observation.",
		MCPInstructions(fs))
	assert.Equal(t, "Available tools:\n\nA\n\nB", InstructionBlock([]string{"A", "B"}))
	assert.Equal(t, "A", InstructionBlock([]string{"A"}))
}

// An MCP inputSchema passes through as the parameters, every keyword
// kept; only "type" and "properties" are added when missing.
func TestFunctionSchema(t *testing.T) {
	in := map[string]any{"type": "object", "properties": map[string]any{"expression": map[string]any{"type": "string", "minLength": 1}},
		"required": []any{"expression"}, "additionalProperties": false, "$defs": map[string]any{"x": map[string]any{}}}
	out := FunctionSchema(in)
	assert.Equal(t, in, out)
	out["extra"] = 1
	assert.NotContains(t, in, "extra", "the input is not modified")

	assert.Equal(t, map[string]any{"type": "object", "properties": map[string]any{}}, FunctionSchema(nil))
	assert.Equal(t, map[string]any{"type": "object", "properties": map[string]any{}, "description": "d"},
		FunctionSchema(map[string]any{"description": "d"}))
	// a typed schema (a server's jsonschema.Schema) goes through its JSON
	type schema struct {
		Type       string                    `json:"type"`
		Properties map[string]map[string]any `json:"properties"`
	}
	typed := &schema{Type: "object", Properties: map[string]map[string]any{"n": {"type": "integer"}}}
	assert.Equal(t, map[string]any{"type": "object", "properties": map[string]any{"n": map[string]any{"type": "integer"}}}, FunctionSchema(typed))
	assert.Equal(t, map[string]any{"type": "object", "properties": map[string]any{}}, FunctionSchema("not a schema"))
}
