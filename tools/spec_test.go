package tools_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/tools"
)

func TestParseSpec(t *testing.T) {
	cases := []struct {
		in      string
		want    tools.Spec
		wantErr []string // substrings of the error; nil: no error
	}{
		{in: "python", want: tools.Spec{Name: "python"}},
		{in: "  search_tool ", want: tools.Spec{Name: "search_tool"}},
		{in: "{name: search, topk: 2, information_tags: true}", want: tools.Spec{Name: "search", TopK: 2, InformationTags: true}},
		{in: "{name: python, max_uses: 3, timeout: 2s}", want: tools.Spec{Name: "python", MaxUses: 3, Timeout: 2 * time.Second}},
		{in: "{name: mcp, command: [node, server.js]}", want: tools.Spec{Name: "mcp", Command: []string{"node", "server.js"}}},
		// a name is not checked here: Validate says which names exist
		{in: "pyhton", want: tools.Spec{Name: "pyhton"}},
		{in: "{name: search, top: 1}", wantErr: []string{"field top not found", "{name: search, top: 1}"}},
		{in: "{name: python, uses: 1, max_use: 2}", wantErr: []string{"field uses not found", "field max_use not found"}},
		{in: "{name: python", wantErr: []string{`"{name: python"`, "yaml:", "want a name or a map"}},
		{in: "{name: python, max_uses: many}", wantErr: []string{"cannot unmarshal", "`many`"}},
		{in: "{name: python} {name: search}", wantErr: []string{"text after the map"}},
		{in: "{name: python}\n{name: search}", wantErr: []string{"text after the map"}},
		{in: "  ", wantErr: []string{"empty tool", "python, search, mcp"}},
	}
	for _, c := range cases {
		got, err := tools.ParseSpec(c.in)
		if c.wantErr == nil {
			require.NoError(t, err, c.in)
			assert.Equal(t, c.want, got, c.in)
			continue
		}
		require.Error(t, err, c.in)
		for _, w := range c.wantErr {
			assert.Contains(t, err.Error(), w, c.in)
		}
		assert.NotContains(t, err.Error(), "\n", "%s: one line for a flag's error", c.in)
	}
}
