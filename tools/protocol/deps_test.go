package protocol

import (
	"strings"
	"testing"

	"github.com/gemgo/gemgo/internal/depstest"
)

// The protocol is a leaf of the standard library: cmd/serve links it to
// render function calls as text, and must link none of the tools' back
// ends (the sandbox, bleve, the MCP SDK) through it.
func TestProtocolImportsOnlyTheStandardLibrary(t *testing.T) {
	const self = depstest.Module + "tools/protocol"
	deps := depstest.Deps(t, ".")
	depstest.Present(t, deps, self, "encoding/json")
	for _, d := range deps {
		first, _, _ := strings.Cut(d, "/")
		if d != self && strings.Contains(first, ".") {
			t.Errorf("tools/protocol links %s: it must import only the standard library", d)
		}
	}
}
