//go:build linux

package sandbox

import (
	"os/exec"
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
	time.Sleep(600 * time.Millisecond)
	cpu := treeCPU(cmd.Process.Pid)
	assert.Greater(t, cpu, 100*time.Millisecond, "the spinning grandchild's CPU time")
	assert.Less(t, cpu, 2*time.Second, "no more than the time that passed, on two cores")
	assert.Zero(t, treeCPU(1<<30), "no such process: nothing")
}
