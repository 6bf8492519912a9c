package main

import (
	"testing"

	"github.com/gemgo/gemgo/internal/depstest"
)

// The trainer writes chat's serving record (chat.Settings) into its
// checkpoints, so it links package chat; it must not link the OpenAI
// client (package chat/openai and the SDK under it, which only eval's
// endpoint policies use) nor the chat server.
func TestTrainLinksNoOpenAIClient(t *testing.T) {
	const m = depstest.Module
	deps := depstest.Deps(t, ".")
	depstest.Present(t, deps, m+"train", m+"chat")
	depstest.Absent(t, deps, "training must not need it",
		"github.com/openai/", m+"chat/openai", m+"serve")
}
