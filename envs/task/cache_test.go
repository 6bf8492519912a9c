package task

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type pair struct {
	Q    string
	Tags []string
}

func countingParser(n *int) func(recs []Record, name string) ([]pair, error) {
	return func(recs []Record, name string) ([]pair, error) {
		*n++
		var out []pair
		for _, r := range recs {
			q, err := r.String(name, "q")
			if err != nil {
				return nil, err
			}
			out = append(out, pair{Q: q, Tags: []string{q + "!"}})
		}
		return out, nil
	}
}

func clonePair(p pair) pair {
	p.Tags = append([]string(nil), p.Tags...)
	return p
}

// 128 loads of one unchanged file parse it once and share one list; a new
// modification time or size parses it again; another spec is another entry.
func TestLoadSharedParsesOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "d.jsonl")
	require.NoError(t, os.WriteFile(path, []byte(`{"q": "a"}`+"\n"+`{"q": "b"}`+"\n"), 0o644))
	parses := 0
	parse := countingParser(&parses)
	first, err := LoadShared(path, "test", parse, clonePair)
	require.NoError(t, err)
	for range 127 {
		items, err := LoadShared(path, "test", parse, clonePair)
		require.NoError(t, err)
		require.Same(t, first, items)
	}
	assert.Equal(t, 1, parses)
	rel, err := filepath.Rel(mustGetwd(t), path)
	require.NoError(t, err)
	items, err := LoadShared(rel, "test", parse, clonePair)
	require.NoError(t, err)
	assert.Same(t, first, items, "a relative path names the same file")
	assert.Equal(t, 1, parses)

	// read-only: a changed copy leaves the shared item as it was
	it := first.At(0)
	it.Q, it.Tags[0] = "x", "y"
	assert.Equal(t, pair{Q: "a", Tags: []string{"a!"}}, first.At(0))
	assert.Equal(t, 2, first.Len())

	// touched: parsed again, and shared again from then on
	later := time.Now().Add(time.Hour)
	require.NoError(t, os.Chtimes(path, later, later))
	second, err := LoadShared(path, "test", parse, clonePair)
	require.NoError(t, err)
	assert.Equal(t, 2, parses)
	assert.NotSame(t, first, second)
	again, _ := LoadShared(path, "test", parse, clonePair)
	assert.Same(t, second, again)
	assert.Equal(t, 2, parses)

	// rewritten with the same time but another size: parsed again
	require.NoError(t, os.WriteFile(path, []byte(`{"q": "c"}`+"\n"), 0o644))
	require.NoError(t, os.Chtimes(path, later, later))
	third, err := LoadShared(path, "test", parse, clonePair)
	require.NoError(t, err)
	assert.Equal(t, 3, parses)
	assert.Equal(t, 1, third.Len())
	assert.Equal(t, "c", third.At(0).Q)

	// another spec is parsed on its own
	_, err = LoadShared(path, "other", parse, clonePair)
	require.NoError(t, err)
	assert.Equal(t, 4, parses)
}

func TestLoadSharedErrorsNotCached(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bad.jsonl")
	require.NoError(t, os.WriteFile(path, []byte(`{"x": 1}`+"\n"), 0o644))
	parses := 0
	for range 3 {
		_, err := LoadShared(path, "test", countingParser(&parses), nil)
		require.ErrorContains(t, err, path+`:1: missing field "q"`)
	}
	assert.Equal(t, 3, parses, "a failed parse is tried again")
	_, err := LoadShared(filepath.Join(t.TempDir(), "none.jsonl"), "test", countingParser(&parses), nil)
	require.ErrorContains(t, err, "open dataset")
	assert.True(t, errors.Is(err, os.ErrNotExist))
}

func mustGetwd(t *testing.T) string {
	t.Helper()
	wd, err := os.Getwd()
	require.NoError(t, err)
	return wd
}
