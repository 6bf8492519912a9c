package atomicfile_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/internal/atomicfile"
)

// names lists the entries of dir.
func names(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	require.NoError(t, err)
	var out []string
	for _, e := range ents {
		out = append(out, e.Name())
	}
	return out
}

func TestWriteFileContentAndMode(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "config.yaml")
	require.NoError(t, atomicfile.WriteFile(path, []byte("a: 1\n")))
	got, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "a: 1\n", string(got))
	fi, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o644), fi.Mode().Perm())
	assert.Equal(t, []string{"config.yaml"}, names(t, dir), "no temporary file left behind")
}

func TestWriteFileReplaces(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "metrics.csv")
	require.NoError(t, os.WriteFile(path, []byte("old, and longer than the new one\n"), 0o600))
	require.NoError(t, atomicfile.WriteFile(path, []byte("new\n")))
	got, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "new\n", string(got))
	fi, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o644), fi.Mode().Perm(), "the mode of the old file is not kept")
	assert.Equal(t, []string{"metrics.csv"}, names(t, dir))
}

func TestWriteFileFailureLeavesNoTemp(t *testing.T) {
	dir := t.TempDir()
	// The rename fails: path is a directory that is not empty.
	path := filepath.Join(dir, "target")
	require.NoError(t, os.MkdirAll(filepath.Join(path, "inside"), 0o755))
	err := atomicfile.WriteFile(path, []byte("data"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), path)
	assert.Equal(t, []string{"target"}, names(t, dir), "the temporary file is removed on failure")
	assert.Equal(t, []string{"inside"}, names(t, path), "the target is left as it was")
}

func TestWriteFileMissingDirectory(t *testing.T) {
	path := filepath.Join(t.TempDir(), "no", "such", "dir", "f")
	err := atomicfile.WriteFile(path, []byte("x"))
	require.Error(t, err)
	assert.ErrorIs(t, err, os.ErrNotExist)
	assert.Contains(t, err.Error(), path)
}

// A WriteFile killed before its rename leaves its temporary file (created
// exactly as step 1 creates it); RemoveStale removes those and nothing else.
func TestRemoveStale(t *testing.T) {
	dir := t.TempDir()
	var litter []string
	for _, name := range []string{"checkpoint.safetensors", "report.html"} {
		f, err := os.CreateTemp(dir, "."+name+".tmp-*")
		require.NoError(t, err)
		_, _ = f.Write([]byte("half a file"))
		require.NoError(t, f.Close())
		litter = append(litter, filepath.Base(f.Name()))
	}
	keep := []string{".hidden", ".x.tmp-", ".x.tmp-12a", "a.tmp-123", "report.html", ".tmp-5"}
	for _, name := range keep {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), nil, 0o644))
	}
	require.NoError(t, os.Mkdir(filepath.Join(dir, ".d.tmp-1"), 0o755))
	removed, err := atomicfile.RemoveStale(dir)
	require.NoError(t, err)
	assert.ElementsMatch(t, litter, removed)
	assert.ElementsMatch(t, append(keep, ".d.tmp-1"), names(t, dir), "only WriteFile's temporary files go")

	removed, err = atomicfile.RemoveStale(filepath.Join(dir, "missing"))
	assert.NoError(t, err)
	assert.Empty(t, removed)
}
