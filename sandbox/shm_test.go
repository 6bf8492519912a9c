package sandbox

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A file a program writes to /dev/shm (RAM) does not outlive its run on
// the host: in a mode with a mount namespace the program's /dev/shm is its
// own (bwrap's fresh /dev; as root, a fresh tmpfs), and with a uid per run
// the uid's files are removed at the end. Only a mode with neither (the
// zero Isolation; a caller that is not root, without bwrap) leaves it.
func TestDevShmDoesNotOutliveTheRun(t *testing.T) {
	if fi, err := os.Stat("/dev/shm"); err != nil || !fi.IsDir() {
		t.Skip("no /dev/shm on this machine")
	}
	py := python(t)
	modes := append(Available(), Isolation{Network: NetNone, Limits: LimitsNone, UID: os.Getuid()})
	checked := 0
	for i, iso := range modes {
		name := fmt.Sprintf("gemgo-shm-test-%d-%d", os.Getpid(), i)
		host := "/dev/shm/" + name
		t.Cleanup(func() { os.Remove(host) })
		code := fmt.Sprintf("try:\n    open('/dev/shm/%s', 'w').write('x' * 1000)\n    print('wrote')\nexcept OSError as e:\n    print('refused', e)", name)
		res, err := RunWith(context.Background(), pySpec(py, code, "", fast), iso)
		require.NoError(t, err, iso.Network)
		require.Equal(t, StatusOK, res.Status, "%s: stderr %s", iso.Network, res.Stderr)
		_, statErr := os.Stat(host)
		if iso.bwrap == "" && !iso.OwnProc && !iso.Unprivileged {
			t.Logf("%s (pid=%v, uid %d): %s; left on the host: %v (documented)", iso.Network, iso.PID, iso.UID, strings.TrimSpace(string(res.Stdout)), statErr == nil)
			continue
		}
		checked++
		assert.True(t, os.IsNotExist(statErr), "%s (pid=%v, proc=%v): %s, and the file is still in the host's /dev/shm (%v)",
			iso.Network, iso.PID, iso.OwnProc, res.Stdout, statErr)
	}
	if checked == 0 {
		t.Skip("no mode here has a mount namespace or a uid per run (apt-get install bubblewrap)")
	}
}

// Where the run gets a fresh /dev/shm tmpfs (a root caller's namespaces),
// it holds at most Limits.FileBytes: 1 MiB files fill 4 MiB, then the
// next write fails with ENOSPC.
func TestDevShmCapped(t *testing.T) {
	py := python(t)
	var iso *Isolation
	for _, a := range Available() {
		if a.OwnProc && a.bwrap == "" {
			iso = &a
			break
		}
	}
	if iso == nil {
		t.Skip("needs a root caller's namespaces with mount(8) (netns mode as root)")
	}
	code := `import errno
n = 0
try:
    for i in range(64):
        with open('/dev/shm/f%d' % i, 'wb') as f:
            for _ in range(4):
                f.write(b'x' * (256 << 10))
                f.flush()
                n += 256 << 10
    print('wrote', n)
except OSError as e:
    print('stopped', n, errno.errorcode[e.errno])`
	lim := fast
	lim.FileBytes = 4 << 20
	res, err := RunWith(context.Background(), pySpec(py, code, "", lim), *iso)
	require.NoError(t, err)
	require.Equal(t, StatusOK, res.Status, "stderr %s", res.Stderr)
	assert.Equal(t, fmt.Sprintf("stopped %d ENOSPC\n", 4<<20), string(res.Stdout))
}
