package corpora

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Each shipped corpus is its file's bytes, every line a Search-R1 document,
// and Get hands out a copy the caller may change.
func TestShipped(t *testing.T) {
	require.Equal(t, []string{"fictional", "fictional-v1", "fictional-v2"}, Names())
	for _, name := range Names() {
		path, ok := File(name)
		require.True(t, ok, name)
		want, err := os.ReadFile(path)
		require.NoError(t, err)
		got, ok := Get(name)
		require.True(t, ok && Has(name), name)
		require.True(t, bytes.Equal(want, got), "%s differs from %s", name, path)
		lines := bytes.Split(bytes.TrimSuffix(got, []byte("\n")), []byte("\n"))
		assert.Greater(t, len(lines), 100, name)
		for i, line := range lines {
			var doc struct{ ID, Contents string }
			require.NoError(t, json.Unmarshal(line, &doc), "%s line %d", name, i+1)
			require.True(t, doc.ID != "" && doc.Contents != "", "%s line %d: %s", name, i+1, line)
		}
		got[0] ^= 0xff
		again, _ := Get(name)
		assert.True(t, bytes.Equal(want, again), "Get(%q) shares its bytes", name)
	}
	for _, name := range []string{"", "fictional-v3", "FICTIONAL", "data/fictional_corpus.jsonl"} {
		_, ok := Get(name)
		assert.False(t, ok || Has(name), name)
		_, ok = File(name)
		assert.False(t, ok, name)
	}
}
