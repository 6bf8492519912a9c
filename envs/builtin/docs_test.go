package builtin_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gemgo/gemgo/envs/builtin"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDocsListEveryID: docs/envs.md names every built-in id (in backticks),
// so that a new env cannot ship without its rules written down.
func TestDocsListEveryID(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "envs.md"))
	require.NoError(t, err)
	doc := string(b)
	for _, id := range builtin.Registry().IDs() {
		assert.True(t, strings.Contains(doc, "`"+id+"`"), "docs/envs.md does not name %s: add its rules, rewards and options", id)
	}
}
