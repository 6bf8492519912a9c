package eval

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/tools/protocol"
)

func TestOpenAINames(t *testing.T) {
	long := strings.Repeat("a", 70)
	for _, c := range []struct {
		in, want []string
	}{
		{[]string{"python", "search", "kv_get"}, []string{"python", "search", "kv_get"}},
		// "." is outside OpenAI's alphabet
		{[]string{"fs.read", "fs.write"}, []string{"fs_read", "fs_write"}},
		// a valid name keeps itself even after an invalid one that maps to it
		{[]string{"fs.read", "fs_read"}, []string{"", "fs_read"}},
		// the same name twice (python tool and an MCP tool named python)
		{[]string{"python", "python", "python"}, []string{"python", "", ""}},
		// too long: cut, with a hash of the whole name
		{[]string{long}, []string{""}},
		{[]string{""}, []string{"f"}},
	} {
		got := openAINames(c.in)
		require.Len(t, got, len(c.in))
		for i, g := range got {
			assert.True(t, validName(g), "%q", g)
			if c.want[i] == "" {
				continue // hash-suffixed: checked by shape below
			}
			assert.Equal(t, c.want[i], g, "%q", c.in)
		}
		seen := map[string]bool{}
		for _, g := range got {
			assert.False(t, seen[g], "%q: %q given twice", c.in, g)
			seen[g] = true
		}
		assert.Equal(t, got, openAINames(c.in), "deterministic")
	}
	// hash-suffixed names: the sanitized name cut, "_", 8 hex digits
	got := openAINames([]string{"fs.read", "fs_read"})
	assert.Regexp(t, `^fs_read_[0-9a-f]{8}$`, got[0])
	got = openAINames([]string{"python", "python", "python"})
	assert.Regexp(t, `^python_[0-9a-f]{8}$`, got[1])
	assert.Equal(t, got[1]+"_2", got[2])
	got = openAINames([]string{long})
	assert.Regexp(t, `^a{55}_[0-9a-f]{8}$`, got[0])
	got = openAINames([]string{long, long + "b"})
	assert.Len(t, got[0], 64)
	assert.Len(t, got[1], 64)
	assert.NotEqual(t, got[0], got[1], "names that share their first 55 characters differ by their hashes")
}

// The reverse map of a native actor finds every tool by its API name.
func TestNativeReverseMap(t *testing.T) {
	funcs := []protocol.Function{{Kind: protocol.KindPython, Name: "python"}, {Kind: protocol.KindMCP, Name: "python"}, {Kind: protocol.KindMCP, Name: "db.query"}}
	names := make([]string, len(funcs))
	for i, f := range funcs {
		names[i] = f.Name
	}
	api := openAINames(names)
	byAPI := map[string]int{}
	for i, n := range api {
		byAPI[n] = i
	}
	require.Len(t, byAPI, 3)
	assert.Equal(t, 0, byAPI["python"], "the python tool keeps its name: it comes first")
	assert.Equal(t, 2, byAPI["db_query"])
	assert.Equal(t, protocol.KindMCP, funcs[byAPI[api[1]]].Kind)
}

func TestCallInput(t *testing.T) {
	py := protocol.Function{Kind: protocol.KindPython, Name: "python"}
	se := protocol.Function{Kind: protocol.KindSearch, Name: "search"}
	mc := protocol.Function{Kind: protocol.KindMCP, Name: "calc"}
	for _, c := range []struct {
		f       protocol.Function
		args    string
		want    string
		wantErr string
	}{
		{py, `{"code": "print(1)\n"}`, "print(1)\n", ""},
		{py, `{"code": 1}`, "", `need a "code" string`},
		{py, `{}`, "", `need a "code" string`},
		{py, `{"code": "x"`, "", "not a JSON object"},
		{py, `["code"]`, "", "not a JSON object"},
		{py, `null`, "", "not a JSON object"},
		{py, `{"code": "a"} {"code": "b"}`, "", "more than one JSON value"},
		{se, `{"query": "  river  "}`, "river", ""},
		{mc, ``, `{}`, ""},
		{mc, `{ "b": [1, 2], "a": "</arguments>", "n": 12345678901234567890 }`, `{"a":"\u003c/arguments\u003e","b":[1,2],"n":12345678901234567890}`, ""},
		{mc, `"text"`, "", "not a JSON object"},
	} {
		got, err := callInput(c.f, c.args)
		if c.wantErr != "" {
			require.Error(t, err, c.args)
			assert.Contains(t, err.Error(), c.wantErr)
			assert.Contains(t, err.Error(), c.f.Name, "the error names the function")
			continue
		}
		require.NoError(t, err, c.args)
		assert.Equal(t, c.want, got, c.args)
	}
}

// Any arguments text: callInput never panics; what it accepts is written
// in the text protocol that the tool parses back to the same input (or
// refused by CallText), and MCP input is a JSON object.
func FuzzCallInput(f *testing.F) {
	for _, s := range []string{`{"code": "print(1)"}`, `{"query": "x"}`, `{"expression": "1+2"}`, ``, `{`, `{"code": "</python>"}`,
		`{"code": "</python>` + "```" + `"}`, `{"a": {"b": [1, {"c": null}]}}`, `{"query": "<search>a</search>"}`, `{"x": 1e400}`} {
		f.Add(s)
	}
	fs := []protocol.Function{{Kind: protocol.KindPython, Name: "python"}, {Kind: protocol.KindSearch, Name: "search"}, {Kind: protocol.KindMCP, Name: "calc"}}
	f.Fuzz(func(t *testing.T, args string) {
		for _, fn := range fs {
			input, err := callInput(fn, args)
			if err != nil {
				continue
			}
			if fn.Kind == protocol.KindMCP {
				require.True(t, json.Valid([]byte(input)) && strings.HasPrefix(input, "{"), "%q → %q", args, input)
			}
			text, err := protocol.CallText(fn.Kind, mcpName(fn), input)
			if err != nil {
				continue
			}
			c, ok := protocol.ParseCall(fn.Kind, text)
			require.True(t, ok, "%q", text)
			require.Equal(t, input, c.Input, "%q", text)
			require.Equal(t, mcpName(fn), c.Name)
			require.Equal(t, text, c.Cut)
		}
	})
}
