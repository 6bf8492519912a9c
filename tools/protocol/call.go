package protocol

import (
	"fmt"
	"regexp"
	"strings"
)

// Tool kinds.
const (
	KindPython = "python"
	KindSearch = "search"
	KindMCP    = "mcp"
)

// Call is one tool call parsed from an action.
type Call struct {
	// Tool is the kind of tool that parsed it ("python", "search", "mcp"):
	// the step info's tool_type.
	Tool string
	// Name is the called function of a tool that serves several (an MCP
	// server's tool name); "" otherwise.
	Name string
	// Input is the call's content: the code, the query, the JSON arguments.
	Input string
	// Cut is the action cut just after the call: what GEM keeps as the
	// parsed action (text written after the call is dropped).
	Cut string
}

const fence = "```"

// ParsePython finds the first complete code block of action: a
// <python>…</python> block or a fenced block opened with ```python
// (GEM's two formats; ```py does not match), whichever ends first.
func ParsePython(action string) (Call, bool) {
	code, end, ok := firstBlock(action, "<python>", "</python>")
	if fcode, fend, fok := firstFenced(action); fok && (!ok || fend < end) {
		code, end, ok = fcode, fend, true
	}
	if !ok {
		return Call{}, false
	}
	return Call{Tool: KindPython, Input: code, Cut: action[:end]}, true
}

// firstFenced finds the first ```python … ``` block: "python" right after
// the opening fence, then the rest of that line.
func firstFenced(s string) (code string, end int, ok bool) {
	from := 0
	for {
		i := strings.Index(s[from:], fence+"python")
		if i < 0 {
			return "", 0, false
		}
		i += from
		head := i + len(fence) + len("python")
		nl := strings.IndexByte(s[head:], '\n')
		if nl < 0 {
			return "", 0, false
		}
		// "```python3" or "```pythonic" is another language tag.
		if rest := strings.TrimSpace(s[head : head+nl]); rest != "" {
			from = head
			continue
		}
		start := head + nl + 1
		j := strings.Index(s[start:], fence)
		if j < 0 {
			return "", 0, false
		}
		return s[start : start+j], start + j + len(fence), true
	}
}

// ParseSearch finds the first complete <search>…</search> of action; the
// query is its content without surrounding space.
func ParseSearch(action string) (Call, bool) {
	q, end, ok := firstBlock(action, "<search>", "</search>")
	if !ok {
		return Call{}, false
	}
	return Call{Tool: KindSearch, Input: strings.TrimSpace(q), Cut: action[:end]}, true
}

var toolCallRE = regexp.MustCompile(`(?s)<tool_call>\s*<tool_name>(.*?)</tool_name>\s*<arguments>(.*?)</arguments>\s*</tool_call>`)

// ParseMCP finds the first complete tool call of action; the name and the
// arguments are their tags' contents without surrounding space.
func ParseMCP(action string) (Call, bool) {
	loc := toolCallRE.FindStringSubmatchIndex(action)
	if loc == nil {
		return Call{}, false
	}
	return Call{Tool: KindMCP, Name: strings.TrimSpace(action[loc[2]:loc[3]]), Input: strings.TrimSpace(action[loc[4]:loc[5]]), Cut: action[:loc[1]]}, true
}

// firstBlock finds the first complete block open…close in s (the one that
// ends earliest; blocks do not nest, so it is also the leftmost) and
// returns its content and the end of its closing tag.
func firstBlock(s, open, close string) (content string, end int, ok bool) {
	i := strings.Index(s, open)
	if i < 0 {
		return "", 0, false
	}
	j := strings.Index(s[i+len(open):], close)
	if j < 0 {
		return "", 0, false
	}
	start := i + len(open)
	return s[start : start+j], start + j + len(close), true
}

// ParseCall parses the first call of kind in action with that kind's
// parser; an unknown kind parses nothing.
func ParseCall(kind, action string) (Call, bool) {
	switch kind {
	case KindPython:
		return ParsePython(action)
	case KindSearch:
		return ParseSearch(action)
	case KindMCP:
		return ParseMCP(action)
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
