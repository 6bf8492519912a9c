package main

import (
	"os/exec"
	"strings"
	"testing"
)

// The server links the chat engine and the policy, not the trainer nor
// the tools' back ends: a checkpoint carries its serving settings
// (chat.SettingsKey), so chat reads them without package train, which
// links every env, the search index (bleve), the MCP SDK and the Python
// sandbox. The test lists cmd/serve's dependencies with the go command.
func TestServeLinksNoTrainer(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go is not on PATH: the dependency list needs the go command")
	}
	out, err := exec.Command(goBin, "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	const mod = "github.com/gemgo/gemgo/"
	banned := []string{
		mod + "train", mod + "tools", mod + "sandbox", mod + "rollout", mod + "algo",
		mod + "envs/qa", mod + "envs/builtin", mod + "envs/remote", mod + "eval", mod + "compare",
		"github.com/blevesearch/", "github.com/modelcontextprotocol/",
	}
	deps := strings.Fields(string(out))
	if len(deps) < 10 || !contains(deps, mod+"chat") {
		t.Fatalf("go list -deps gave no plausible list (%d lines); want chat among them", len(deps))
	}
	for _, d := range deps {
		for _, b := range banned {
			if d == b || strings.HasPrefix(d, b+"/") || (strings.HasSuffix(b, "/") && strings.HasPrefix(d, b)) {
				t.Errorf("cmd/serve links %s (%s): serving must not need it", d, b)
			}
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
