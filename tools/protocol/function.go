package protocol

import (
	"encoding/json"
	"maps"
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
