package main

import (
	"testing"

	"github.com/gemgo/gemgo/internal/depstest"
)

// The server links the chat engine and the policy, not the trainer nor
// the tools' back ends: a checkpoint carries its serving settings
// (chat.SettingsKey), so chat reads them without package train, which
// links every env, the search index (bleve), the MCP SDK and the Python
// sandbox.
func TestServeLinksNoTrainer(t *testing.T) {
	const m = depstest.Module
	deps := depstest.Deps(t, ".")
	depstest.Present(t, deps, m+"chat", m+"serve", m+"policy")
	depstest.Absent(t, deps, "serving must not need it",
		m+"train", m+"tools", m+"sandbox", m+"rollout", m+"algo",
		m+"envs/qa", m+"envs/builtin", m+"envs/remote", m+"envs/game", m+"eval", m+"compare",
		"github.com/blevesearch/", "github.com/modelcontextprotocol/")
}
