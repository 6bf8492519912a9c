package sandbox

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSpecDir: with Spec.Dir a run works in the given directory, which
// outlives it, so that a second run finds the first one's files; a file
// with a second hard link is not given to the run's uid.
func TestSpecDir(t *testing.T) {
	parent := t.TempDir()
	require.NoError(t, os.Chmod(parent, 0o711))
	dir := filepath.Join(parent, "work")
	require.NoError(t, os.Mkdir(dir, 0o755))
	outside := filepath.Join(parent, "outside")
	require.NoError(t, os.WriteFile(outside, []byte("mine"), 0o600))
	require.NoError(t, os.Link(outside, filepath.Join(dir, "linked")))

	lim := Limits{Wall: 20 * time.Second}
	res, err := Run(context.Background(), Spec{Cmd: []string{"sh", "-c", "echo one > a.txt; pwd"}, Dir: dir, Limits: lim})
	require.NoError(t, err)
	require.True(t, res.OK(), "%s %s", res.Status, res.Stderr)
	assert.Equal(t, dir+"\n", string(res.Stdout))
	res, err = Run(context.Background(), Spec{Cmd: []string{"sh", "-c", "cat a.txt; cat linked 2>/dev/null || echo unreadable"}, Dir: dir, Limits: lim})
	require.NoError(t, err)
	want := "one\nmine"
	if res.Isolation.Unprivileged {
		want = "one\nunreadable\n"
	}
	assert.Equal(t, want, string(res.Stdout))
	_, err = os.Stat(filepath.Join(dir, "a.txt"))
	assert.NoError(t, err, "the directory and its files outlive the run")

	_, err = Run(context.Background(), Spec{Cmd: []string{"true"}, Dir: "relative/dir"})
	assert.ErrorContains(t, err, "must be an existing directory given by its absolute path")
}
