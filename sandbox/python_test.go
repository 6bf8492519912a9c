package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFindPython(t *testing.T) {
	p := python(t)
	assert.True(t, strings.HasPrefix(p, "/"), "an absolute path: %s", p)
	_, err := FindPython("no-such-python-gemgo")
	assert.ErrorContains(t, err, "apt-get install python3")
	_, err = FindPython("false")
	assert.ErrorContains(t, err, `its file name "false" does not start with python or pypy`, "no other program is run with Python's arguments")
}

// trustedTempDir makes a directory for fake interpreters whose whole chain
// FindPython trusts (below the package directory, not the sticky /tmp),
// or returns "" where the checkout itself is not such a chain.
func trustedTempDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp(".", ".findpython-")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	dir, err = filepath.Abs(dir)
	require.NoError(t, err)
	require.NoError(t, os.Chmod(dir, 0o755))
	probe := filepath.Join(dir, "probe")
	require.NoError(t, os.WriteFile(probe, nil, 0o755))
	if _, _, err := trustedPath(probe); err != nil {
		t.Logf("the checkout is not a trusted chain (%v): only the /tmp cases run", err)
		return ""
	}
	return dir
}

// FindPython runs nothing that someone other than root or the caller
// could have written or swapped: a script that would leave a marker and
// claim to be Python 3 is refused, unrun, when it or a directory on its
// way is writable by others (the sticky /tmp included), when it is owned
// by another uid, or when a symbolic link leads there. The same script in
// a trusted place runs (the control: the refusals are the vetting's).
func TestFindPythonRunsNothingUnvetted(t *testing.T) {
	markers := t.TempDir()
	py, err := FindPython("/usr/bin/python3")
	if err != nil {
		t.Skipf("the fake interpreter reports /usr/bin/python3 as its executable, which must pass: %v", err)
	}
	n := 0
	fake := func(dir string, mode os.FileMode) (path, marker string) {
		n++
		marker = filepath.Join(markers, "ran"+string(rune('a'+n)))
		path = filepath.Join(dir, "python3-fake"+string(rune('a'+n)))
		script := "#!/bin/sh\necho ran > " + marker + "\necho 3\necho " + py + "\n"
		require.NoError(t, os.WriteFile(path, []byte(script), mode))
		require.NoError(t, os.Chmod(path, mode))
		return path, marker
	}
	refused := func(name, path, marker, why string) {
		t.Helper()
		_, err := FindPython(path)
		require.Error(t, err, name)
		assert.ErrorContains(t, err, "is not run", name)
		assert.ErrorContains(t, err, why, name)
		assert.ErrorContains(t, err, "apt-get install python3", name)
		_, statErr := os.Stat(marker)
		assert.True(t, os.IsNotExist(statErr), "%s: the program ran (marker %s)", name, marker)
	}

	tmp := t.TempDir()
	require.NoError(t, os.Chmod(tmp, 0o777))
	p, m := fake(tmp, 0o755)
	refused("in a world-writable dir", p, m, "writable by every user")
	open := t.TempDir() // 0755, but under the sticky, world-writable /tmp
	if fi, err := os.Stat(os.TempDir()); err == nil && fi.Mode().Perm()&0o002 != 0 {
		p, m = fake(open, 0o755)
		refused("under the temp dir", p, m, "writable by every user")
		link := filepath.Join(open, "python3-link")
		require.NoError(t, os.Symlink("/usr/bin/python3", link))
		_, err = FindPython(link)
		assert.ErrorContains(t, err, "writable by every user", "a link in the temp dir to a good interpreter: the link could be swapped")
	}

	trusted := trustedTempDir(t)
	if trusted == "" {
		return
	}
	p, m = fake(trusted, 0o757)
	refused("writable by others", p, m, "writable by every user")
	p, m = fake(trusted, 0o755)
	require.NoError(t, os.Chmod(p, 0o775))
	if os.Getegid() != 0 {
		require.NoError(t, os.Chown(p, -1, os.Getegid())) // a group of the caller's: allowed
	}
	got, err := FindPython(p)
	require.NoError(t, err, "the control: a trusted script is run")
	assert.Equal(t, py, got)
	_, err = os.Stat(m)
	assert.NoError(t, err, "the control ran and left its marker")
	broken := filepath.Join(trusted, "python3-broken")
	require.NoError(t, os.WriteFile(broken, []byte("#!/bin/sh\nexit 1\n"), 0o755))
	_, err = FindPython(broken)
	assert.ErrorContains(t, err, "does not run (exit status 1)", "a trusted program that fails")

	target, m := fake(tmp, 0o755)
	link := filepath.Join(trusted, "python3-link")
	require.NoError(t, os.Symlink(target, link))
	refused("a trusted link to an untrusted file", link, m, "writable by every user")

	if os.Geteuid() == 0 {
		p, m = fake(trusted, 0o755)
		require.NoError(t, os.Chown(p, 65534, 65534))
		refused("owned by another uid", p, m, "owned by uid 65534")
		p, m = fake(trusted, 0o775)
		require.NoError(t, os.Chown(p, 0, 65534))
		refused("writable by another group", p, m, "writable by group 65534")
	}
}

// The default interpreter is one the sandbox can run. PATH's python3 here
// is a link in a directory only root may enter (as a pyenv under /root):
// under every mode with a uid per run and no bwrap, PythonFor skips it for
// a Python 3 every user may run and says so; under bwrap, which mounts it
// in, it is kept. A configured name is kept as given, with the error.
func TestPythonForPrefersARunnableInterpreter(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("only a root caller runs programs as a uid of its own, which a root-only directory stops")
	}
	trusted := trustedTempDir(t)
	if trusted == "" {
		t.Skip("the checkout is not a trusted chain")
	}
	private := filepath.Join(trusted, "private")
	require.NoError(t, os.Mkdir(private, 0o700))
	real, err := filepath.EvalSymlinks("/usr/bin/python3")
	if err != nil {
		t.Skipf("needs /usr/bin/python3: apt-get install python3 (%v)", err)
	}
	require.NoError(t, os.Symlink(real, filepath.Join(private, "python3")))
	t.Setenv("PATH", private+":/usr/bin:/bin")
	hidden, err := FindPython(DefaultPython)
	require.NoError(t, err)
	require.Equal(t, filepath.Join(private, "python3"), hidden, "the interpreter reports the link it was run by")

	fallbacks := 0
	for _, iso := range Available() {
		got, note, err := PythonFor(DefaultPython, iso)
		require.NoError(t, err, iso.Network)
		if iso.CanRun(hidden) == nil {
			assert.Equal(t, hidden, got, "%s can run PATH's python3: kept", iso.Network)
			assert.Empty(t, note)
			continue
		}
		fallbacks++
		assert.NoError(t, iso.CanRun(got), iso.Network)
		assert.Contains(t, FallbackPythons(), got, iso.Network)
		assert.Equal(t, "python: "+got+" (PATH's python3 ("+hidden+") cannot be run by the sandbox under isolation \""+iso.Network+"\")", note)
		_, _, err = PythonFor(hidden, iso)
		assert.ErrorContains(t, err, "cannot be run by the sandbox's unprivileged user", "a configured path is kept, with the error")
		_, _, err = pythonFor(DefaultPython, iso, []string{"/nonexistent/python3", hidden})
		assert.ErrorContains(t, err, "nor can it run /nonexistent/python3 or "+hidden+": apt-get install python3", "none runnable: the install line")
	}
	if !Detect().Unprivileged {
		t.Skip("runs do not get a uid of their own here (no setpriv)")
	}
	assert.Positive(t, fallbacks, "the weakest mode has a uid per run and no bwrap")
}
