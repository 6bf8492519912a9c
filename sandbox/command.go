package sandbox

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"sync/atomic"
	"syscall"
	"time"
)

// sandboxed is a program set up to start under an isolation: Run's one
// program, or PythonServer's long-lived interpreter. Both get the same
// command line, environment, process attributes and kill.
type sandboxed struct {
	cmd *exec.Cmd
	// kill ends the program the way that lets its CPU time be reported
	// (cmd.Cancel is set to it as well).
	kill func() error
	// info is the write end of bwrap's info fd, closed once bwrap holds
	// its copy; infoR its read end, closed after the program ends.
	info, infoR *os.File
}

// command sets up prog with args to run in dir under iso and the rlimits
// of lim, as uid (-1: as the caller), with the minimal environment plus
// env. The kill (cmd.Cancel, run when ctx ends) kills the program's
// processes by their uid where it has one, else by the pid bwrap reports
// on its info fd, and then the process group.
func (i Isolation) command(ctx context.Context, lim Limits, dir string, network bool, prog string, args []string, uid int, env []string) (*sandboxed, error) {
	argv := i.argv(lim, dir, network, prog, args, uid)
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = append(minimalEnv(dir), env...)
	cmd.SysProcAttr = i.attr(network)
	s := &sandboxed{cmd: cmd}
	s.kill = func() error { return killGroup(cmd.Process.Pid) }
	if uid >= 0 {
		// Kill the program's processes by their uid, not bwrap or the
		// namespace's parent: that one then reaps the program and exits,
		// so its CPU time reaches the rusage that Wait reads. The group
		// goes too, a moment later, should anything be left.
		s.kill = func() error {
			killUser(i.sh, uid)
			pid := cmd.Process.Pid
			time.AfterFunc(200*time.Millisecond, func() { _ = killGroup(pid) })
			return nil
		}
	} else if i.bwrap != "" {
		// Without a uid of its own, the program is found by the pid bwrap
		// reports on its info fd, and killed first for the same reason.
		r, w, err := os.Pipe()
		if err != nil {
			return nil, fmt.Errorf("sandbox: %w", err)
		}
		s.info, s.infoR = w, r
		cmd.ExtraFiles = []*os.File{w} // fd 3
		cmd.Args = append([]string{cmd.Args[0], "--info-fd", "3"}, cmd.Args[1:]...)
		var child atomic.Int64
		go func() {
			var msg struct {
				ChildPid int `json:"child-pid"`
			}
			if json.NewDecoder(r).Decode(&msg) == nil {
				child.Store(int64(msg.ChildPid))
			}
		}()
		s.kill = func() error {
			if p := int(child.Load()); p > 0 {
				_ = syscall.Kill(p, syscall.SIGKILL)
				pid := cmd.Process.Pid
				time.AfterFunc(200*time.Millisecond, func() { _ = killGroup(pid) })
				return nil
			}
			return killGroup(cmd.Process.Pid)
		}
	}
	cmd.Cancel = func() error { return s.kill() }
	return s, nil
}

// start starts the program.
func (s *sandboxed) start() error {
	err := s.cmd.Start()
	if s.info != nil {
		s.info.Close() // bwrap holds its copy
	}
	return err
}

// close releases what start kept open; call it once the program has ended.
func (s *sandboxed) close() {
	if s.infoR != nil {
		s.infoR.Close()
	}
}

// minimalEnv is the environment of a program that runs in dir.
func minimalEnv(dir string) []string {
	return []string{
		"PATH=/usr/local/bin:/usr/bin:/bin",
		"HOME=" + dir,
		"PWD=" + dir,
		"TMPDIR=" + dir,
		"LANG=C.UTF-8",
		"LC_ALL=C.UTF-8",
		// One malloc arena: glibc reserves 64 MiB of address space per
		// arena, up to 8 per core, so that under RLIMIT_AS a few threads
		// used up the memory limit (6 Python threads in 256 MiB); each
		// thread now costs its stack.
		"MALLOC_ARENA_MAX=1",
	}
}
