package sandbox

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func lookSh() (string, error) { return exec.LookPath("sh") }

func TestCapture(t *testing.T) {
	calls := 0
	c := &capture{limit: 5, overflow: func() { calls++ }}
	n, err := c.Write([]byte("abc"))
	assert.Equal(t, 3, n)
	assert.NoError(t, err)
	n, _ = c.Write([]byte("de"))
	assert.Equal(t, 2, n)
	b, trunc := c.bytes()
	assert.Equal(t, "abcde", string(b))
	assert.False(t, trunc)
	assert.Equal(t, 0, calls)
	n, _ = c.Write([]byte("fg"))
	assert.Equal(t, 2, n, "swallowed so the pipe drains")
	_, _ = c.Write([]byte("h"))
	b, trunc = c.bytes()
	assert.Equal(t, "abcde", string(b))
	assert.True(t, trunc)
	assert.Equal(t, 1, calls, "overflow fires once")

	c = &capture{limit: 4, overflow: func() { calls++ }}
	_, _ = c.Write([]byte("123456"))
	b, _ = c.bytes()
	assert.Equal(t, "1234", string(b), "a write across the limit keeps its head")
}

func TestCPUSeconds(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want int64
	}{{0, 1}, {time.Millisecond, 1}, {time.Second, 1}, {time.Second + 1, 2}, {2500 * time.Millisecond, 3}} {
		assert.Equal(t, tc.want, cpuSeconds(tc.d), "%v", tc.d)
	}
}

func TestWrap(t *testing.T) {
	lim := Limits{CPU: 1500 * time.Millisecond, MemoryBytes: 1000, FileBytes: 7}
	p := Isolation{Limits: LimitsPrlimit, tool: "/usr/bin/prlimit"}
	assert.Equal(t, []string{"/usr/bin/prlimit", "--cpu=2:2", "--as=1000:1000", "--fsize=7:7", "--core=0:0", "--", "/py", "a"},
		p.wrap(lim, "/py", []string{"a"}))
	u := Isolation{Limits: LimitsUlimit, tool: "/bin/sh"}
	assert.Equal(t, []string{"/bin/sh", "-c", `ulimit -t 2 && ulimit -v 1 && ulimit -c 0 && exec "$@"`, "sh", "/py"},
		u.wrap(lim, "/py", nil))
	assert.Equal(t, []string{"/py", "a"}, Isolation{Limits: LimitsNone}.wrap(lim, "/py", []string{"a"}))
	// With a uid per run, RLIMIT_NPROC caps the run's processes, and the
	// program drops to its uid with no capabilities.
	lim.Processes = 9
	d := Isolation{Limits: LimitsPrlimit, tool: "/usr/bin/prlimit", Unprivileged: true, setpriv: "/usr/bin/setpriv"}
	assert.Equal(t, []string{"/usr/bin/setpriv", "--reuid=7", "--regid=7", "--clear-groups", "--inh-caps=-all", "--bounding-set=-all", "--no-new-privs", "--",
		"/usr/bin/prlimit", "--cpu=2:2", "--as=1000:1000", "--fsize=7:7", "--core=0:0", "--nproc=9:9", "--", "/py"},
		d.argv(lim, "/w", false, "/py", nil, 7))
}

// A work directory whose process is gone (killed while its program ran)
// is removed at the next start; one whose process lives, or of another
// name, stays.
func TestRemoveLeaked(t *testing.T) {
	tmp := t.TempDir()
	dead := exec.Command("true")
	require.NoError(t, dead.Run())
	deadPid := dead.ProcessState.Pid()
	now := time.Now()
	mk := func(name string, age time.Duration) {
		p := filepath.Join(tmp, name)
		require.NoError(t, os.MkdirAll(filepath.Join(p, "sub"), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(p, "sub", "main.py"), []byte("x"), 0o644))
		require.NoError(t, os.Chtimes(p, now.Add(-age), now.Add(-age)))
	}
	mk(fmt.Sprintf("gemgo-sandbox-%d-123", deadPid), 0)
	mk(fmt.Sprintf("gemgo-sandbox-probe-%d-9", deadPid), 0)
	mk(fmt.Sprintf("gemgo-sandbox-%d-456", os.Getpid()), 0) // in use
	mk("gemgo-sandbox-777777", 2*time.Hour)                 // old name, old
	mk("gemgo-sandbox-888888", time.Minute)                 // old name, maybe in use
	mk("gemgo-sandbox-notes", 2*time.Hour)
	mk("other-dir", 2*time.Hour)
	removed := removeLeakedIn(tmp, now)
	assert.ElementsMatch(t, []string{fmt.Sprintf("gemgo-sandbox-%d-123", deadPid), fmt.Sprintf("gemgo-sandbox-probe-%d-9", deadPid), "gemgo-sandbox-777777"}, removed)
	left, err := os.ReadDir(tmp)
	require.NoError(t, err)
	var names []string
	for _, e := range left {
		names = append(names, e.Name())
	}
	assert.ElementsMatch(t, []string{fmt.Sprintf("gemgo-sandbox-%d-456", os.Getpid()), "gemgo-sandbox-888888", "gemgo-sandbox-notes", "other-dir"}, names)
}

// A run's work directory names its process, so that removeLeaked can
// tell it from a leaked one.
func TestWorkDirNamesItsProcess(t *testing.T) {
	res, err := Run(context.Background(), Spec{Cmd: []string{"pwd"}})
	require.NoError(t, err)
	assert.Contains(t, res.Dir, fmt.Sprintf("gemgo-sandbox-%d-", os.Getpid()))
}

// Pick reads an isolation option: "" and "auto" give the strongest
// available, a name its isolation, an unknown name an error listing what
// is available.
func TestPick(t *testing.T) {
	all := Available()
	for _, name := range []string{"", "auto"} {
		iso, err := Pick(name)
		if err != nil || iso.Network != all[0].Network {
			t.Fatalf("Pick(%q) = %v, %v; want the strongest, %s", name, iso.Network, err, all[0].Network)
		}
	}
	last := all[len(all)-1]
	if iso, err := Pick(last.Network); err != nil || iso.Network != last.Network {
		t.Fatalf("Pick(%q) = %v, %v", last.Network, iso.Network, err)
	}
	_, err := Pick("nonesuch")
	if err == nil || !strings.Contains(err.Error(), `isolation "nonesuch" is not available on this machine (available: auto, `+all[0].Network) {
		t.Fatalf("Pick(nonesuch): %v", err)
	}
}
