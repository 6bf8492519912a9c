package protocol

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

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
// JSON function definition per line inside <tools></tools> (the
// parameters as given: a nil schema is written null), then how to call
// one.
func MCPInstructions(fs []Function) string {
	var b strings.Builder
	b.WriteString("You can call the following tools, given as JSON function definitions:\n<tools>\n")
	for _, f := range fs {
		def, _ := json.Marshal(map[string]any{"type": "function", "function": map[string]any{
			"name": f.Name, "description": f.Description, "parameters": f.Parameters}})
		b.Write(def)
		b.WriteByte('\n')
	}
	b.WriteString("</tools>\nCall one tool per message, as\n" +
		`<tool_call><tool_name>NAME</tool_name><arguments>{"name": "value"}</arguments></tool_call>` +
		"\nwith the arguments as a JSON object. The tool's result comes back as the next observation.")
	return b.String()
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
