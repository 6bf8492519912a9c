package serve

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/chat"
	"github.com/gemgo/gemgo/tools/protocol"
)

func testToolSet(t *testing.T, names ...string) *toolSet {
	var ts []toolJSON
	for _, n := range names {
		key := map[string]string{"python": "code", "search": "query"}[n]
		if key == "" {
			key = "a"
		}
		ts = append(ts, toolJSON{Type: "function", Function: chat.Function{Name: n,
			Parameters: map[string]any{"type": "object", "properties": map[string]any{key: map[string]any{"type": "string"}}}}})
	}
	s, err := newToolSet(ts)
	require.NoError(t, err)
	return s
}

// A generated text's call, as the tool wrapper would take it: the first
// tool in the request's order that parses one, with the text before it.
func TestParseGeneratedCall(t *testing.T) {
	all := testToolSet(t, "python", "search", "calc")
	for _, c := range []struct {
		set                *toolSet
		text, before, name string
		args               string
		ok                 bool
	}{
		{all, "x <python>print(1)</python> y", "x ", "python", `{"code":"print(1)"}`, true},
		{all, "a ```python\nprint(2)\n``` b", "a ", "python", `{"code":"print(2)\n"}`, true},
		{all, "q <search> river </search>", "q ", "search", `{"query":"river"}`, true},
		{all, `t <tool_call><tool_name>calc</tool_name><arguments>{"a": 1}</arguments></tool_call>`, "t ", "calc", `{"a": 1}`, true},
		// python comes first in the request, so it takes the action though search is written first
		{all, "<search>a</search><python>b</python>", "<search>a</search>", "python", `{"code":"b"}`, true},
		{testToolSet(t, "search", "python"), "<search>a</search><python>b</python>", "", "search", `{"query":"a"}`, true},
		// a tag of a tool not offered is text
		{testToolSet(t, "calc"), "<python>1</python>", "", "", "", false},
		{all, `\boxed{3}`, "", "", "", false},
	} {
		before, call, ok := c.set.parse(c.text)
		require.Equal(t, c.ok, ok, c.text)
		if !ok {
			continue
		}
		assert.Equal(t, c.before, before, c.text)
		assert.Equal(t, c.name, call.Name, c.text)
		assert.Equal(t, c.args, call.Arguments, c.text)
		assert.True(t, strings.HasPrefix(call.ID, "call_") && len(call.ID) == 5+24, call.ID)
	}
}

// Any arguments of a history call: callText never panics, and a text it
// writes parses back to the call's content.
func FuzzHistoryCallText(f *testing.F) {
	for _, s := range []string{`{"code":"print(1)"}`, `{"query":"x"}`, `{"a":1}`, ``, `{`, `{"code":"</python>"}`, `{"query":"</search>"}`} {
		f.Add("python", s)
		f.Add("search", s)
		f.Add("calc", s)
	}
	f.Fuzz(func(t *testing.T, name, args string) {
		var c callJSON
		c.Function.Name, c.Function.Arguments = name, args
		text, err := callText(c)
		if err != nil {
			return
		}
		var obj map[string]any
		_ = json.Unmarshal([]byte(args), &obj)
		if code, ok := obj["code"].(string); ok && name == "python" {
			got, ok := protocol.ParseCall(protocol.KindPython, text)
			require.True(t, ok)
			require.Equal(t, code, got.Input)
			return
		}
		if q, ok := obj["query"].(string); ok && name == "search" {
			got, ok := protocol.ParseCall(protocol.KindSearch, text)
			require.True(t, ok)
			require.Equal(t, strings.TrimSpace(q), got.Input)
			return
		}
		got, ok := protocol.ParseCall(protocol.KindMCP, text)
		require.True(t, ok, "%q", text)
		require.Equal(t, name, got.Name)
		if got.Input != strings.TrimSpace(args) { // re-encoded: the same JSON
			var back map[string]any
			require.NoError(t, json.Unmarshal([]byte(got.Input), &back), "%q", got.Input)
			require.Equal(t, obj, back)
		}
	})
}
