package eval_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/chat"
	"github.com/gemgo/gemgo/envs/builtin"
	"github.com/gemgo/gemgo/envs/mcptask"
	"github.com/gemgo/gemgo/eval"
)

// An mcp:* env calls its MCP server's tools itself: native function
// calling offers them without -tool, and plays the same episodes as the
// text protocol (same env actions, observations and rewards), a bad JSON
// argument answered with an error tool message that the env never sees.
func TestNativeMCPTaskMatchesText(t *testing.T) {
	if err := mcptask.PostgresUsable(); err != nil {
		t.Skip(err)
	}
	release, err := mcptask.HoldCluster() // one cluster for every episode's env
	require.NoError(t, err)
	defer release()
	const (
		look   = "SELECT id, stock FROM products WHERE stock < 10 ORDER BY id"
		update = "UPDATE products SET stock = stock + 50 WHERE stock < 10"
	)
	play := func(native bool) ([]eval.Record, *scripted) {
		srv := newScripted(t, func(req wireReq) reply {
			res := toolTexts(req, native)
			if native {
				switch len(res) {
				case 0:
					return reply{calls: [][2]string{{"query", `{"sql": `}, {"query", compact(map[string]string{"sql": look})}}}
				case 2:
					return reply{calls: [][2]string{{"execute", compact(map[string]string{"sql": update})}}}
				}
				return reply{text: "Restocked."}
			}
			switch len(res) {
			case 0:
				return reply{text: "<tool_call><tool_name>query</tool_name><arguments>" + compact(map[string]string{"sql": look}) + "</arguments></tool_call>"}
			case 1:
				return reply{text: "<tool_call><tool_name>execute</tool_name><arguments>" + compact(map[string]string{"sql": update}) + "</arguments></tool_call>"}
			}
			return reply{text: "Restocked."}
		})
		cfg := eval.DefaultConfig()
		cfg.Policies, cfg.Envs, cfg.Episodes = []string{"m@" + srv.url}, []string{"mcp:postgres-sample"}, 2
		cfg.EnvOptions = map[string]any{"task": "restock"}
		cfg.Concurrency, cfg.Resamples, cfg.Retries = 1, 10, 0
		if native {
			cfg.ToolProtocol = eval.ProtocolNative
		}
		require.NoError(t, cfg.Validate(), "native needs no -tool for an mcp env")
		dir := t.TempDir()
		md, err := eval.Run(context.Background(), cfg, open(t, cfg), eval.Options{Dir: dir, Registry: builtin.Registry()})
		require.NoError(t, err)
		require.True(t, md.Complete)
		recs := records(t, dir)
		for _, r := range recs {
			require.Empty(t, r.Error)
		}
		return recs, srv
	}
	text, _ := play(false)
	native, srv := play(true)
	require.Len(t, native, 2)
	for i := range text {
		tr, nr := text[i], native[i]
		assert.True(t, tr.Success)
		assert.Equal(t, tr.Rewards, nr.Rewards)
		assert.Equal(t, tr.Messages, nr.Messages, "the env saw the same actions and gave the same observations")
		conv := nr.NativeMessages
		assert.NotContains(t, conv[0].Content, "<tools>", "the tools are functions, not instructions")
		var errs []string
		for _, m := range conv {
			if m.Role == chat.RoleTool && strings.HasPrefix(m.Content, "[Tool call error:") {
				errs = append(errs, m.Content)
			}
		}
		require.Len(t, errs, 1)
		assert.Contains(t, errs[0], "are not a JSON object")
	}
	srv.mu.Lock()
	defer srv.mu.Unlock()
	for _, req := range srv.reqs {
		var names []string
		for _, tl := range req.Tools {
			names = append(names, tl.Function.Name)
		}
		assert.Equal(t, []string{"execute", "list_schema", "query"}, names)
		assert.Equal(t, "auto", req.ToolChoice)
	}
}
