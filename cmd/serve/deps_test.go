package main

import (
	"strings"
	"testing"

	"github.com/gemgo/gemgo/internal/depstest"
)

// The server links the chat engine and the policy, not the trainer nor
// the tools' back ends: a checkpoint carries its serving settings
// (chat.SettingsKey), so chat reads them without package train, which
// links every env, the search index (bleve), the MCP SDK and the Python
// sandbox; function calling needs only the text protocol
// (tools/protocol), not package tools; and a server needs no OpenAI
// client (chat/openai).
func TestServeLinksNoTrainer(t *testing.T) {
	const m = depstest.Module
	deps := depstest.Deps(t, ".")
	depstest.Present(t, deps, m+"chat", m+"serve", m+"policy", m+"tools/protocol")
	depstest.Absent(t, deps, "serving must not need it",
		m+"train", m+"sandbox", m+"rollout", m+"algo",
		m+"envs/qa", m+"envs/builtin", m+"envs/remote", m+"envs/game", m+"eval", m+"compare",
		m+"chat/openai", "github.com/blevesearch/", "github.com/modelcontextprotocol/", "github.com/openai/")
	// Of package tools and those under it, only the protocol.
	for _, d := range deps {
		if (d == m+"tools" || strings.HasPrefix(d, m+"tools/")) && d != m+"tools/protocol" {
			t.Errorf("links %s: of the tools, serving needs only %stools/protocol", d, m)
		}
	}
}
