package envs

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLastBoxedTable(t *testing.T) {
	cases := []struct {
		in   string
		want string
		ok   bool
	}{
		{`\boxed{5}`, "5", true},
		{`I think \boxed{1} then \boxed{2}.`, "2", true},
		{`\boxed{ 3 }`, "3", true},
		{"\\boxed{\n up \t}", "up", true},
		{`\boxed{\frac{1}{2}}`, `\frac{1}{2}`, true},
		{`\boxed{1} and \boxed{2`, "1", true},
		{`\boxed{}`, "", true},
		{`\boxed{a}}`, "a", true},
		{`\boxed{\boxed{1}}`, "1", true},
		{`\boxed{x \boxed{1}`, "1", true},
		{`\boxed{{1}} \boxed{{`, "{1}", true},
		{`no box`, "", false},
		{``, "", false},
		{`\boxed{{}`, "", false},
		{`\boxed {1}`, "", false},
		{`\boxed{`, "", false},
		{`boxed{1}`, "", false},
	}
	for _, c := range cases {
		got, ok := LastBoxed(c.in)
		assert.Equal(t, c.ok, ok, "%q", c.in)
		assert.Equal(t, c.want, got, "%q", c.in)
	}
}

func TestBoxedRoundTrip(t *testing.T) {
	for _, s := range []string{"1", "1 2 3 4", "reveal 0 4", `\frac{1}{2}`, "{}"} {
		got, ok := LastBoxed(Boxed(s))
		require.True(t, ok)
		assert.Equal(t, s, got)
	}
}

// A response of many unclosed boxes would make a quadratic search hang for
// minutes; the search is linear.
func TestLastBoxedLinearOnUnclosedBoxes(t *testing.T) {
	s := strings.Repeat(`\boxed{`, 1<<18)
	_, ok := LastBoxed(s)
	assert.False(t, ok)
	got, ok := LastBoxed(`\boxed{7}` + s)
	assert.True(t, ok)
	assert.Equal(t, "7", got)
}

// lastBoxedSpec is LastBoxed by its definition, written the slow way: of
// every \boxed{ whose brace closes, the one that starts last.
func lastBoxedSpec(s string) (string, bool) {
	const tag = `\boxed{`
	best, found := "", false
	for i := 0; i+len(tag) <= len(s); i++ {
		if s[i:i+len(tag)] != tag {
			continue
		}
		depth := 1
		for j := i + len(tag); j < len(s); j++ {
			if s[j] == '{' {
				depth++
			} else if s[j] == '}' {
				depth--
			}
			if depth == 0 {
				best, found = strings.TrimSpace(s[i+len(tag):j]), true
				break
			}
		}
	}
	return best, found
}

func balanced(s string) bool {
	depth := 0
	for i := range len(s) {
		switch s[i] {
		case '{':
			depth++
		case '}':
			depth--
			if depth < 0 {
				return false
			}
		}
	}
	return depth == 0
}

func FuzzLastBoxed(f *testing.F) {
	for _, s := range []string{
		`\boxed{5}`, `a \boxed{1} b \boxed{2`, `\boxed{\frac{1}{2}}`, `\boxed{{}`, `}}{{\boxed{}`,
		`\boxed{\boxed{1}}`, "\\boxed{\xff}", `\boxed{1 2 3 4}`, ``, `\boxed{` + strings.Repeat("{", 40),
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := LastBoxed(s)
		want, wantOK := lastBoxedSpec(s)
		if ok != wantOK || got != want {
			t.Fatalf("LastBoxed(%q) = %q, %v; by definition %q, %v", s, got, ok, want, wantOK)
		}
		if !ok {
			if got != "" {
				t.Fatalf("LastBoxed(%q) = %q with ok false", s, got)
			}
			return
		}
		if got != strings.TrimSpace(got) || !strings.Contains(s, got) {
			t.Fatalf("LastBoxed(%q) = %q: not a trimmed part of the input", s, got)
		}
		if !balanced(got) {
			t.Fatalf("LastBoxed(%q) = %q: braces not balanced", s, got)
		}
		if !strings.Contains(got, `\boxed{`) {
			again, ok2 := LastBoxed(Boxed(got))
			if !ok2 || again != got {
				t.Fatalf("LastBoxed(Boxed(%q)) = %q, %v: does not reparse", got, again, ok2)
			}
		}
		// Text without braces or backslashes around the response changes
		// nothing.
		if again, ok2 := LastBoxed("so: " + s + " done."); !ok2 || again != got {
			t.Fatalf("LastBoxed with plain text around %q = %q, %v; want %q", s, again, ok2, got)
		}
	})
}
