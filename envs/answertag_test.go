package envs

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLastAnswerTagTable(t *testing.T) {
	cases := []struct {
		in, want string
		ok       bool
	}{
		{`<answer>5</answer>`, "5", true},
		{"<think>hm</think> <answer> Paris \n</answer>", "Paris", true},
		{`<answer>1</answer> then <answer>2</answer>`, "2", true}, // the last tag wins
		{`<answer>1</answer> and <answer>2`, "1", true},           // an unclosed last tag is skipped
		{`<answer>draft <answer>42</answer>`, "42", true},         // an unclosed outer tag
		{`<answer><answer>7</answer></answer>`, "7", true},        // nested whole tags unwrap
		{`<answer>a <answer>b</answer> c</answer>`, "a <answer>b</answer> c", true},
		{`<answer><answer>1</answer> <answer>2</answer></answer>`, "<answer>1</answer> <answer>2</answer>", true},
		{`</answer><answer>3</answer>`, "3", true}, // a stray close is text
		{`<answer>\boxed{4}</answer>`, `\boxed{4}`, true},
		{`<answer></answer>`, "", true},
		{`<answer>x < y</answer>`, "x < y", true},
		{`\boxed{5}`, "", false},
		{`<answer>5`, "", false},
		{`5</answer>`, "", false},
		{`<Answer>5</Answer>`, "", false},
		{`<answer >5</answer>`, "", false},
		{``, "", false},
	}
	for _, c := range cases {
		got, ok := LastAnswerTag(c.in)
		assert.Equal(t, c.ok, ok, "%q", c.in)
		assert.Equal(t, c.want, got, "%q", c.in)
	}
}

func TestAnswerTagRoundTrip(t *testing.T) {
	for _, s := range []string{"1", "New York", `\frac{1}{2}`, "True"} {
		got, ok := LastAnswerTag(AnswerTagged(s))
		require.True(t, ok)
		assert.Equal(t, s, got)
	}
}

// Many unclosed tags (or many closes) keep the search linear: a quadratic
// scan of this input would take minutes.
func TestLastAnswerTagLinear(t *testing.T) {
	s := strings.Repeat("<answer>", 1<<17)
	_, ok := LastAnswerTag(s)
	assert.False(t, ok)
	got, ok := LastAnswerTag("<answer>7</answer>" + s)
	assert.True(t, ok)
	assert.Equal(t, "7", got)
	got, ok = LastAnswerTag(strings.Repeat("</answer>", 1<<17) + "<answer>8</answer>")
	assert.True(t, ok)
	assert.Equal(t, "8", got)
}

func FuzzLastAnswerTag(f *testing.F) {
	for _, s := range []string{"<answer>1</answer>", "<answer><answer>x</answer></answer>", "</answer><answer>", "<answer>a<answer>b</answer>c</answer>", "<<answer>>"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := LastAnswerTag(s)
		if !ok {
			if got != "" {
				t.Fatalf("not ok but content %q", got)
			}
			if strings.Contains(s, answerOpen) && strings.Contains(s[strings.Index(s, answerOpen):], answerClose) {
				t.Fatalf("%q has an open tag before a close tag but no answer", s)
			}
			return
		}
		if !strings.Contains(s, strings.TrimSpace(got)) {
			t.Fatalf("content %q is not part of %q", got, s)
		}
		// wrapping the answer again reads it back
		if again, ok2 := LastAnswerTag(AnswerTagged(got)); !ok2 || again != got {
			if _, whole := wholeTag(got); !whole {
				t.Fatalf("round trip of %q gave %q, %v", got, again, ok2)
			}
		}
	})
}
