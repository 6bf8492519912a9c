// Package protocol is GEM's text tool protocol: how a model calls a tool
// in the text it writes, and how the prompt tells it so. It imports only
// the standard library, so that a program that renders or parses calls
// without running them (cmd/serve's native function calling) links none
// of the tools' back ends (the sandbox, bleve, the MCP SDK).
//
// The protocol has three kinds of tool (KindPython, KindSearch, KindMCP),
// each with its tags:
//
//   - python: <python>…</python> or a ```python fenced block (ParsePython);
//   - search: <search>…</search> (ParseSearch);
//   - mcp: <tool_call><tool_name>NAME</tool_name><arguments>{JSON}</arguments></tool_call>
//     (ParseMCP).
//
// A parser finds the first complete call of its kind in an action (the
// one whose closing tag ends earliest) as a Call; ParseCall picks the
// parser of a kind, and CallText writes a call back as the text its
// parser reads. The instruction texts (PythonInstructions,
// SearchInstructions, MCPInstructions, joined by InstructionBlock) are
// what the tool wrapper of package tools appends to an env's first
// observation. Function is a tool as a native function calling API
// offers it, and FunctionSchema turns an MCP inputSchema into its
// parameters.
//
// Package tools runs the calls (its Tool's Parse is this package's
// parser of its kind); package serve renders OpenAI tool calls into
// this protocol and parses them back.
package protocol
