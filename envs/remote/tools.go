package remote

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gemgo/gemgo/corpora"
	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/remote/wire"
	"github.com/gemgo/gemgo/tools"
	"github.com/gemgo/gemgo/tools/protocol"
)

// Tool wrappers asked for in reset data (tools: [{"name": "python"}]) run
// on the server: a python tool runs the model's code in package sandbox on
// the server's machine, and a search tool holds an index in its memory.
// A server therefore serves no tools unless its operator lists the kinds
// (Config.Tools, cmd/envserver -tools), as vLLM runs no remote code
// unless told. Keys that would make the server run a program of the
// client's choosing, read or write its files, or reach other hosts are
// refused whatever the operator allows; so is mcp, whose spec is one of
// those (a command or an endpoint).

// ServableTools are the tool kinds a server can be allowed to serve.
var ServableTools = []string{protocol.KindPython, protocol.KindSearch}

// hostKey is a Spec key that names something on the server's machine or
// network.
type hostKey struct {
	name string
	set  func(tools.Spec) bool
	what string
}

var hostKeys = []hostKey{
	{"python", func(s tools.Spec) bool { return s.Python != "" }, "names a program on the server (the server runs its own python3)"},
	{"corpus", func(s tools.Spec) bool { return s.Corpus != "" && !corpora.Has(s.Corpus) }, "names a file on the server (only the shipped corpora are served: " + strings.Join(corpora.Names(), ", ") + ")"},
	{"index_dir", func(s tools.Spec) bool { return s.IndexDir != "" }, "names a directory on the server"},
	{"url", func(s tools.Spec) bool { return s.URL != "" }, "makes the server reach another host"},
}

// checkToolsAllowed validates Config.Tools.
func checkToolsAllowed(kinds []string) error {
	for i, k := range kinds {
		if !slices.Contains(ServableTools, k) {
			return fmt.Errorf("remote: Config.Tools[%d] = %q: a server can serve %s tools (mcp cannot be served: its spec names a program or host of the client's choosing)", i, k, strings.Join(ServableTools, " and "))
		}
	}
	return nil
}

// checkTools applies the server's tool policy to a reset's specs (already
// checked by tools.ValidateSpecs).
func (s *Server) checkTools(typ string, specs []tools.Spec) *wire.Error {
	for i, sp := range specs {
		kind := sp.Resolved().Name
		switch {
		case len(s.cfg.Tools) == 0:
			return wire.Errorf(wire.CodeValidation, "%s: tools[%d].name = %s: this server serves no tools (its operator allows them with cmd/envserver -tools %s)", typ, i, envs.Excerpt(sp.Name), strings.Join(ServableTools, ","))
		case !slices.Contains(s.cfg.Tools, kind):
			return wire.Errorf(wire.CodeValidation, "%s: tools[%d].name = %s: this server serves only %s tools", typ, i, envs.Excerpt(sp.Name), strings.Join(s.cfg.Tools, ", "))
		}
		for _, k := range hostKeys {
			if k.set(sp) {
				return wire.Errorf(wire.CodeValidation, "%s: tools[%d].%s: a client may not set it: it %s; remove it", typ, i, k.name, k.what)
			}
		}
	}
	return nil
}
