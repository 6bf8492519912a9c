package tools

import (
	"strings"
	"testing"
	"time"

	"github.com/gemgo/gemgo/tools/toolserver"
)

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

func FuzzPythonParse(f *testing.F) {
	for _, s := range []string{"<python>print(1)</python>", "```python\nx\n```", "```python\n<python>a</python>\n```", "```py\n```", "<python><python></python>"} {
		f.Add(s)
	}
	p := &Python{cfg: PythonConfig{Timeout: time.Second}}
	f.Fuzz(func(t *testing.T, a string) {
		call, ok := p.Parse(a)
		if !ok {
			return
		}
		closing := "</python>"
		if strings.HasSuffix(call.Cut, fence) {
			closing = fence
		}
		checkCall(t, p.Parse, a, closing)
	})
}

func FuzzSearchParse(f *testing.F) {
	for _, s := range []string{"<search>x</search>", "<search><search>y</search>", "</search><search>", "<search> </search>"} {
		f.Add(s)
	}
	s := &Search{}
	f.Fuzz(func(t *testing.T, a string) {
		checkCall(t, s.Parse, a, "</search>")
	})
}

func FuzzMCPParse(f *testing.F) {
	for _, s := range []string{
		`<tool_call><tool_name>a</tool_name><arguments>{}</arguments></tool_call>`,
		"<tool_call> <tool_name>a</tool_name>\n<arguments>{\"x\": 1}</arguments> </tool_call> tail",
		`<tool_call><tool_name></tool_name><arguments></arguments></tool_call>`,
	} {
		f.Add(s)
	}
	m := &MCP{}
	f.Fuzz(func(t *testing.T, a string) {
		checkCall(t, m.Parse, a, "</tool_call>")
	})
}

// The demo server's calculator never panics and answers within its limits.
func FuzzCalculate(f *testing.F) {
	for _, s := range []string{"1+2*3", "(1/3)^-2", "2^1000^1000", "-(-(-1))", "1.5.2", "((((", "9^9^9", "0^-1", "1/0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, expr string) {
		start := time.Now()
		_, _ = toolserver.Calculate(expr)
		if d := time.Since(start); d > 2*time.Second {
			t.Fatalf("Calculate(%q) took %v", expr, d)
		}
	})
}
