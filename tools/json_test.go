package tools

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"

	"github.com/gemgo/gemgo/tools/protocol"
)

// A Spec's JSON form is its YAML form: the same keys, durations as
// strings, and it reads back to the same Spec.
func TestSpecJSONRoundTrip(t *testing.T) {
	specs := []Spec{
		{Name: "python_tool"},
		{Name: protocol.KindPython, MaxUses: 3, ToolReward: 0.1, Timeout: 1500 * time.Millisecond, MaxOutput: 64, StderrLastLine: true},
		{Name: protocol.KindSearch, TopK: 2, InformationTags: true, Corpus: CorpusFictional},
		{Name: protocol.KindMCP, Command: []string{"srv", "-x"}, Retries: -1},
	}
	for _, s := range specs {
		b, err := json.Marshal(s)
		require.NoError(t, err)
		var back Spec
		require.NoError(t, json.Unmarshal(b, &back), "%s", b)
		assert.Equal(t, s, back, "%s", b)
		// The same text is YAML that the config decoder reads alike.
		var fromYAML Spec
		dec := yaml.NewDecoder(strings.NewReader(string(b)))
		dec.KnownFields(true)
		require.NoError(t, dec.Decode(&fromYAML), "%s", b)
		assert.Equal(t, s, fromYAML, "%s", b)
	}
	b, _ := json.Marshal(Spec{Name: protocol.KindPython, MaxUses: 2, Timeout: 5 * time.Second})
	assert.JSONEq(t, `{"name":"python","max_uses":2,"timeout":"5s"}`, string(b), "unset keys are left out")
}

func TestSpecJSONErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`"python"`, "a tool is a JSON object"},
		{`null`, "a tool is a JSON object"},
		{`[1]`, "a tool is a JSON object"},
		{`{"name":"python","maxuses":5}`, `"maxuses": unknown key (allowed: name, max_uses,`},
		{`{"name":"python","max_uses":"five"}`, `max_uses = "five": want an integer`},
		{`{"name":"python","max_uses":2.5}`, `max_uses = 2.5: want an integer`},
		{`{"name":7}`, `name = 7: want a string`},
		{`{"name":"python","timeout":5}`, `timeout = 5: want a duration string`},
		{`{"name":"python","timeout":"5 seconds"}`, `timeout = "5 seconds": want a duration string`},
		{`{"name":"python","stderr_last_line":"yes"}`, `stderr_last_line = "yes": want true or false`},
		{`{"name":"mcp","command":"srv"}`, `command = "srv": want a list of strings`},
	} {
		var s Spec
		err := json.Unmarshal([]byte(c.in), &s)
		require.Error(t, err, c.in)
		assert.Contains(t, err.Error(), c.want, c.in)
	}
}
