package code

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestExtractCode(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
		ok             bool
	}{
		{"python block", "Here:\n```python\nprint(1)\n```\nDone.", "print(1)", true},
		{"plain block", "```\nx = 1\nprint(x)\n```", "x = 1\nprint(x)", true},
		{"last of two python", "```python\nprint(1)\n```\ntext\n```python\nprint(2)\n```", "print(2)", true},
		{"python wins over a later plain block", "```python\nprint(1)\n```\nExample input:\n```\n3\n```", "print(1)", true},
		{"last plain when no python", "```\na\n```\n```\nb\n```", "b", true},
		{"other languages skipped", "```python\nprint(1)\n```\n```bash\npython3 main.py\n```", "print(1)", true},
		{"only another language", "```text\nhello\n```", "", false},
		{"tags py, python3, Python", "```Python3\nprint(3)\n```", "print(3)", true},
		{"py tag", "```py\nprint(4)\n```", "print(4)", true},
		{"info string after the language", "```python title=main.py\nprint(5)\n```", "print(5)", true},
		{"empty block", "```python\n```", "", true},
		{"blank body line", "```python\n\n```", "", true},
		{"unclosed block", "```python\nprint(1)\n", "", false},
		{"unclosed after a closed one", "```python\nprint(1)\n```\n```python\nprint(2)", "print(1)", true},
		{"no block", "print(1)", "", false},
		{"empty", "", "", false},
		{"inline backticks are not a fence", "use ```print(1)``` here", "", false},
		{"two backticks are not a fence", "``\nprint(1)\n``", "", false},
		{"longer fence holds a shorter one", "````python\nprint('```')\n```\n````", "print('```')\n```", true},
		{"closing fence needs enough ticks", "````\na\n```\nb\n````", "a\n```\nb", true},
		{"indented fences", "  ```python\n  print(1)\n  ```", "  print(1)", true},
		{"CRLF line ends", "```python\r\nprint(1)\r\n```\r\n", "print(1)\r", true},
		{"closing fence with trailing text is content", "```python\nprint(1)\n``` not a fence\n```", "print(1)\n``` not a fence", true},
		{"backtick in info string is not a fence", "```py`thon\nprint(1)\n```", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := ExtractCode(tc.in)
			assert.Equal(t, tc.ok, ok)
			assert.Equal(t, tc.want, got)
		})
	}
}

func FuzzExtractCode(f *testing.F) {
	for _, s := range []string{"", "```python\nprint(1)\n```", "```\n```", "````\n```\n````", "a\n```py x\nb\n```\n```", "```\r\n\r\n```", "\n```python\n"} {
		f.Add(s, "print(input())")
	}
	f.Fuzz(func(t *testing.T, response, code string) {
		// 1. Any response: no panic, and the code is a slice of it.
		got, ok := ExtractCode(response)
		if ok {
			require.True(t, strings.Contains(response, got), "code %q is not part of the response", got)
		} else {
			require.Empty(t, got)
		}
		// 2. Code without fences, wrapped in a python block after prose
		// without fences, comes back exactly.
		if strings.Contains(response, "```") || strings.Contains(code, "```") {
			return
		}
		wrapped := response + "\n```python\n" + code + "\n```\n" + response
		got, ok = ExtractCode(wrapped)
		require.True(t, ok, "%q", wrapped)
		require.Equal(t, code, got)
	})
}
