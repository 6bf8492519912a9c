package sandbox

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The zygote is what a call could attack that a fresh run does not
// have: its parent, of the same uid. Where the sandbox promises to keep a
// program from the caller (a PID namespace or a uid of its own), a call
// can neither trace the zygote nor reach its pipes through /proc, and
// whatever it does to it (kill it, stop it, lock up its directories) the
// next call runs normally.
func TestServerHostileCalls(t *testing.T) {
	t.Parallel()
	calls := []struct {
		name, code string
		contained  bool // the call must end normally and print "contained"
	}{
		{"kill the zygote", "import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\nprint('sent')", false},
		{"stop the zygote", "import os, signal\nos.kill(os.getppid(), signal.SIGSTOP)\nprint('sent')", false},
		{"interrupt the zygote", "import os, signal\nos.kill(os.getppid(), signal.SIGINT)\nprint('sent')", false},
		{"trace the zygote", "import ctypes, os\nlibc = ctypes.CDLL(None, use_errno=True)\nr = libc.ptrace(16, os.getppid(), 0, 0)\nprint('contained' if r != 0 else 'ESCAPED', os.strerror(ctypes.get_errno()))", true},
		{"the zygote's pipes", "import os\ntry:\n    os.open('/proc/%d/fd/1' % os.getppid(), os.O_WRONLY)\n    print('ESCAPED')\nexcept OSError as e:\n    print('contained', e)", true},
		{"the zygote's memory", "import os\ntry:\n    open('/proc/%d/mem' % os.getppid(), 'rb')\n    print('ESCAPED')\nexcept OSError as e:\n    print('contained', e)", true},
		{"lock up the directories", "import os\nos.mkdir('d')\nos.chmod('d', 0)\nos.chmod('..', 0o500)\nprint('locked')", false},
		{"fill the work dir", "import os\nd = '..'\nfor i in range(2000):\n    d = os.path.join(d, 'n')\n    os.mkdir(d)\nprint('deep')", false},
	}
	for i, iso := range Available() {
		if !iso.PID && !iso.Unprivileged {
			continue // the program can signal and trace the caller: nothing promised
		}
		t.Run(fmt.Sprintf("%d-%s-pid=%v", i, iso.Network, iso.PID), func(t *testing.T) {
			s := newServer(t, iso, 0)
			lim := fast
			lim.Wall, lim.CPU = 2*time.Second, 2*time.Second
			for _, c := range calls {
				res, err := s.Run(context.Background(), []byte(c.code), nil, lim)
				t.Logf("%s: %v %s %q", c.name, err, res.Status, res.Stdout)
				if c.contained {
					require.NoError(t, err, c.name)
					assert.True(t, strings.HasPrefix(string(res.Stdout), "contained"), "%s: stdout %q stderr %q", c.name, res.Stdout, res.Stderr)
				}
				after := serverRun(t, s, "print('alive')", "", fast)
				assert.Equal(t, "alive\n", string(after.Stdout), "%s: the next call runs (stderr %q)", c.name, after.Stderr)
			}
		})
	}
}
