package envs

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The concurrency rule is part of the contract a user reads: the doc of
// Env says an env must not be shared between goroutines and how to run
// envs in parallel instead.
func TestEnvDocStatesConcurrencyRule(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "env.go", nil, parser.ParseComments)
	require.NoError(t, err)
	var doc string
	ast.Inspect(f, func(n ast.Node) bool {
		if g, ok := n.(*ast.GenDecl); ok && g.Doc != nil {
			for _, s := range g.Specs {
				if ts, ok := s.(*ast.TypeSpec); ok && ts.Name.Name == "Env" {
					doc = g.Doc.Text()
				}
			}
		}
		return true
	})
	doc = strings.Join(strings.Fields(doc), " ")
	assert.Contains(t, doc, "not safe for concurrent use")
	assert.Contains(t, doc, "one Env per goroutine")
}
