package tools

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

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

// CallText writes what the tool parses back; content that holds the
// protocol's own closing tags is refused, or fenced for python.
func TestCallText(t *testing.T) {
	for _, c := range []struct{ kind, name, input, want string }{
		{KindPython, "", "print(1)\n", "<python>print(1)\n</python>"},
		{KindPython, "", `print("</python>")` + "\n", "```python\nprint(\"</python>\")\n```"},
		{KindSearch, "", "river", "<search>river</search>"},
		{KindMCP, "calc", `{"a":1}`, `<tool_call><tool_name>calc</tool_name><arguments>{"a":1}</arguments></tool_call>`},
	} {
		got, err := CallText(c.kind, c.name, c.input)
		require.NoError(t, err)
		assert.Equal(t, c.want, got)
	}
	for _, c := range []struct{ kind, input string }{
		{KindPython, "print('</python>```')"},
		{KindSearch, "a</search>"},
		{KindSearch, " padded "},
		{KindMCP, `{"a":"</arguments></tool_call>"}`},
		{"shell", "ls"},
	} {
		_, err := CallText(c.kind, "calc", c.input)
		assert.Error(t, err, "%s %q", c.kind, c.input)
	}
}
