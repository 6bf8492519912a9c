package protocol

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParsePython(t *testing.T) {
	for _, c := range []struct {
		action, code, cut string
		ok                bool
	}{
		{"<python>print(1)</python> then", "print(1)", "<python>print(1)</python>", true},
		{"a ```python\nprint(2)\n``` b", "print(2)\n", "a ```python\nprint(2)\n```", true},
		// the block that ends first wins, whatever its format
		{"```python\nx=1\n``` <python>y</python>", "x=1\n", "```python\nx=1\n```", true},
		{"<python>y</python> ```python\nx\n```", "y", "<python>y</python>", true},
		{"<python>a ```python\nb\n``` c</python>", "b\n", "<python>a ```python\nb\n```", true},
		{"```py\nprint(1)\n```", "", "", false},
		{"```python3\nprint(1)\n```", "", "", false},
		{"<python>print(1)", "", "", false},
		{"```python\nprint(1)", "", "", false},
		{`\boxed{3}`, "", "", false},
	} {
		call, ok := ParsePython(c.action)
		require.Equal(t, c.ok, ok, "%q", c.action)
		if ok {
			assert.Equal(t, c.code, call.Input, "%q", c.action)
			assert.Equal(t, c.cut, call.Cut, "%q", c.action)
			assert.Equal(t, KindPython, call.Tool)
		}
	}
}

func TestParseSearch(t *testing.T) {
	for _, c := range []struct {
		action, query, cut string
		ok                 bool
	}{
		{"I look it up. <search> Dulwyn Dulkatal </search> then", "Dulwyn Dulkatal", "I look it up. <search> Dulwyn Dulkatal </search>", true},
		{"<search><search>y</search>", "<search>y", "<search><search>y</search>", true},
		{"</search><search>x", "", "", false},
		{"<search>x", "", "", false},
	} {
		call, ok := ParseSearch(c.action)
		require.Equal(t, c.ok, ok, "%q", c.action)
		if ok {
			assert.Equal(t, Call{Tool: KindSearch, Input: c.query, Cut: c.cut}, call)
		}
	}
}

func TestParseMCP(t *testing.T) {
	for _, c := range []struct {
		action, name, args, cut string
		ok                      bool
	}{
		{`a <tool_call><tool_name>calculate</tool_name><arguments>{"expression": "1+2"}</arguments></tool_call> b`,
			"calculate", `{"expression": "1+2"}`, `a <tool_call><tool_name>calculate</tool_name><arguments>{"expression": "1+2"}</arguments></tool_call>`, true},
		{"<tool_call>\n <tool_name> kv_get </tool_name>\n <arguments>{}</arguments>\n</tool_call>", "kv_get", "{}", "<tool_call>\n <tool_name> kv_get </tool_name>\n <arguments>{}</arguments>\n</tool_call>", true},
		{"<tool_call><tool_name>x</tool_name></tool_call>", "", "", "", false},
		{"<tool_call><tool_name>x</tool_name><arguments>{}</arguments>", "", "", "", false},
	} {
		call, ok := ParseMCP(c.action)
		require.Equal(t, c.ok, ok, c.action)
		if ok {
			assert.Equal(t, Call{Tool: KindMCP, Name: c.name, Input: c.args, Cut: c.cut}, call)
		}
	}
}

// ParseCall is the parser of the kind named, and nothing for another.
func TestParseCallPicksTheKind(t *testing.T) {
	action := "<search>q</search> <python>p</python> <tool_call><tool_name>n</tool_name><arguments>{}</arguments></tool_call>"
	for kind, input := range map[string]string{KindPython: "p", KindSearch: "q", KindMCP: "{}"} {
		c, ok := ParseCall(kind, action)
		require.True(t, ok, kind)
		assert.Equal(t, kind, c.Tool)
		assert.Equal(t, input, c.Input)
	}
	_, ok := ParseCall("shell", action)
	assert.False(t, ok)
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

// checkCall is what every parser promises: the cut is a prefix of the
// action that ends with the call's closing tag, the input lies inside the
// cut, and parsing the cut again finds the same call.
func checkCall(t *testing.T, parse func(string) (Call, bool), action, closing string) {
	call, ok := parse(action)
	if !ok {
		return
	}
	if !strings.HasPrefix(action, call.Cut) || !strings.HasSuffix(call.Cut, closing) {
		t.Fatalf("cut %q of %q: want a prefix ending with %q", call.Cut, action, closing)
	}
	if !strings.Contains(call.Cut, call.Input) {
		t.Fatalf("input %q is not inside the cut %q", call.Input, call.Cut)
	}
	again, ok := parse(call.Cut)
	if !ok || again != call {
		t.Fatalf("parsing the cut %q again gives %+v, %v: want %+v", call.Cut, again, ok, call)
	}
}

func FuzzParsePython(f *testing.F) {
	for _, s := range []string{"<python>print(1)</python>", "```python\nx\n```", "```python\n<python>a</python>\n```", "```py\n```", "<python><python></python>"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, a string) {
		call, ok := ParsePython(a)
		if !ok {
			return
		}
		closing := "</python>"
		if strings.HasSuffix(call.Cut, fence) {
			closing = fence
		}
		checkCall(t, ParsePython, a, closing)
	})
}

func FuzzParseSearch(f *testing.F) {
	for _, s := range []string{"<search>x</search>", "<search><search>y</search>", "</search><search>", "<search> </search>"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, a string) {
		checkCall(t, ParseSearch, a, "</search>")
	})
}

func FuzzParseMCP(f *testing.F) {
	for _, s := range []string{
		`<tool_call><tool_name>a</tool_name><arguments>{}</arguments></tool_call>`,
		"<tool_call> <tool_name>a</tool_name>\n<arguments>{\"x\": 1}</arguments> </tool_call> tail",
		`<tool_call><tool_name></tool_name><arguments></arguments></tool_call>`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, a string) {
		checkCall(t, ParseMCP, a, "</tool_call>")
	})
}
