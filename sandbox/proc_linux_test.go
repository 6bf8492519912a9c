//go:build linux

package sandbox

import (
	"os/exec"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// treeCPU counts the CPU time of a process's descendants: a shell whose
// child spins has used about the spin's time, though the shell itself
// has not run.
func TestTreeCPUCountsDescendants(t *testing.T) {
	cmd := exec.Command("sh", "-c", "sh -c 'while :; do :; done' & wait")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	require.NoError(t, cmd.Start())
	defer func() {
		_ = killGroup(cmd.Process.Pid)
		_ = cmd.Wait()
	}()
	// On a loaded machine the spin may get little CPU: wait (up to 60 s,
	// where 0.1 s of CPU takes 0.1 s on an idle core) until it has 0.1 s.
	start := time.Now()
	var cpu time.Duration
	for time.Since(start) < time.Minute {
		time.Sleep(100 * time.Millisecond)
		if cpu = treeCPU(cmd.Process.Pid); cpu > 100*time.Millisecond {
			break
		}
	}
	elapsed := time.Since(start)
	assert.Greater(t, cpu, 100*time.Millisecond, "the spinning grandchild's CPU time")
	assert.LessOrEqual(t, cpu, elapsed*time.Duration(runtime.NumCPU()), "no more than the time that passed, on every core")
	assert.Zero(t, treeCPU(1<<30), "no such process: nothing")
}
