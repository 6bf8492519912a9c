package sandbox

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync/atomic"
	"syscall"
	"time"
)

var (
	errWall   = errors.New("wall-clock limit")
	errOutput = errors.New("output limit")
)

// Run runs spec under the isolation Detect reports. It returns an error
// when the program could not be started (not found, bad Spec) or when ctx
// was cancelled; otherwise Result.Status says how the program ended.
func Run(ctx context.Context, spec Spec) (Result, error) {
	return RunWith(ctx, spec, Detect())
}

// RunWith is Run under iso, one of Available. The zero Isolation runs the
// program with the wall-clock and output limits only.
func RunWith(ctx context.Context, spec Spec, iso Isolation) (Result, error) {
	return run(ctx, spec, iso)
}

// run is RunWith.
func run(ctx context.Context, spec Spec, iso Isolation) (Result, error) {
	if len(spec.Cmd) == 0 || spec.Cmd[0] == "" {
		return Result{}, errors.New("sandbox: empty Spec.Cmd: give the program to run")
	}
	if err := spec.Limits.Validate(); err != nil {
		return Result{}, err
	}
	lim := spec.Limits.withDefaults()
	prog, err := iso.program(spec.Cmd[0])
	if err != nil {
		return Result{}, err
	}
	removeLeaked()
	dir := spec.Dir
	if dir == "" {
		if dir, err = os.MkdirTemp("", workDirPattern("")); err != nil {
			return Result{}, fmt.Errorf("sandbox: working directory: %w", err)
		}
		defer os.RemoveAll(dir)
	} else if fi, err := os.Stat(dir); err != nil || !fi.IsDir() || !filepath.IsAbs(dir) {
		return Result{}, fmt.Errorf("sandbox: Spec.Dir %q must be an existing directory given by its absolute path", dir)
	}
	if err := writeFiles(dir, spec.Files); err != nil {
		return Result{}, err
	}
	uid := -1
	if iso.Unprivileged {
		u, err := acquireUser()
		if err != nil {
			return Result{}, err
		}
		// Released (every process of the uid killed) before the work
		// directory goes.
		defer u.release(iso.sh)
		if err := chownTree(dir, u.uid); err != nil {
			return Result{}, fmt.Errorf("sandbox: working directory: %w", err)
		}
		uid = u.uid
	}

	runCtx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	wallCtx, cancelWall := context.WithTimeoutCause(runCtx, lim.Wall, errWall)
	defer cancelWall()

	sb, err := iso.command(wallCtx, lim, dir, spec.Network, prog, spec.Cmd[1:], uid, spec.Env)
	if err != nil {
		return Result{}, err
	}
	defer sb.close()
	cmd := sb.cmd
	cmd.Stdin = bytes.NewReader(spec.Stdin)
	onOverflow := func() { stop(errOutput) }
	stdout := &capture{limit: lim.OutputBytes, overflow: onOverflow}
	stderr := &capture{limit: lim.OutputBytes, overflow: onOverflow}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	// Whichever way it kills, the cancel first notes the CPU time of the
	// process tree: a program whose reaper dies with it (bwrap's pid 1 in
	// a PID namespace) never reaches the rusage that Wait reads.
	var cancelCPU atomic.Int64
	kill := cmd.Cancel
	cmd.Cancel = func() error {
		cancelCPU.Store(int64(treeCPU(cmd.Process.Pid)))
		return kill()
	}
	// A child that escaped the group and holds a pipe open cannot keep
	// Wait blocked for more than this.
	cmd.WaitDelay = 500 * time.Millisecond

	start := time.Now()
	if err := sb.start(); err != nil {
		return Result{}, fmt.Errorf("sandbox: start %s: %w", spec.Cmd[0], err)
	}
	waitErr := cmd.Wait()
	wall := time.Since(start)
	_ = killGroup(cmd.Process.Pid) // whatever the program left in its group
	if ctx.Err() != nil {
		return Result{}, fmt.Errorf("sandbox: run %s: %w", spec.Cmd[0], ctx.Err())
	}
	ps := cmd.ProcessState
	if ps == nil {
		return Result{}, fmt.Errorf("sandbox: run %s: %w", spec.Cmd[0], waitErr)
	}

	res := Result{Wall: wall, CPU: max(ps.UserTime()+ps.SystemTime(), time.Duration(cancelCPU.Load())), ExitCode: ps.ExitCode(), Isolation: iso, Dir: dir}
	res.Stdout, res.Truncated = stdout.bytes()
	var errTrunc bool
	res.Stderr, errTrunc = stderr.bytes()
	res.Truncated = res.Truncated || errTrunc
	var sig syscall.Signal
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		sig = ws.Signal()
	} else if iso.pidOne(spec.Network) && res.ExitCode > 128 && res.ExitCode <= 128+64 {
		// The program is pid 1 of its PID namespace. bwrap reports it
		// killed by signal n as exit code 128+n; in the other modes a pid-1
		// program that re-raises a signal to die by it (CPython after an
		// uncaught KeyboardInterrupt) finds it ignored and exits 128+n.
		// Either way, the warm server's child, not pid 1, dies by signal n.
		sig = syscall.Signal(res.ExitCode - 128)
	}
	if sig != 0 {
		res.Signal, res.ExitCode = sig.String(), -1
	}
	res.Status = classify(res, sig, context.Cause(wallCtx), lim, iso)
	return res, nil
}

// classify decides the Status of a finished run.
func classify(res Result, sig syscall.Signal, cause error, lim Limits, iso Isolation) Status {
	switch {
	case errors.Is(cause, errOutput):
		return StatusOutputLimit
	case errors.Is(cause, errWall):
		return StatusTimeout
	case sig == syscall.SIGXCPU:
		return StatusCPULimit
	case sig == syscall.SIGKILL && (iso.Limits == LimitsPrlimit || iso.Limits == LimitsUlimit) &&
		res.CPU >= time.Duration(cpuSeconds(lim.CPU))*time.Second/2:
		// At the hard RLIMIT_CPU the kernel sends SIGKILL (a pid-1 program
		// ignores the soft limit's SIGXCPU). The CPU time rusage reports
		// runs short of the kernel's own count by up to a tenth or so, hence
		// the margin; no other SIGKILL comes from the sandbox itself.
		return StatusCPULimit
	case res.ExitCode != 0 && allocFailed(res.Stderr):
		return StatusMemoryLimit
	case res.ExitCode != 0:
		return StatusRuntimeError
	}
	return StatusOK
}

// allocFailed reports whether stderr names a failed allocation.
func allocFailed(stderr []byte) bool {
	for _, s := range []string{"MemoryError", "Cannot allocate memory", "bad_alloc", "out of memory"} {
		if bytes.Contains(stderr, []byte(s)) {
			return true
		}
	}
	return false
}

// killGroup kills the process group led by pid (and, in a PID namespace,
// with its pid 1 every process in it).
func killGroup(pid int) error {
	err := syscall.Kill(-pid, syscall.SIGKILL)
	if errors.Is(err, syscall.ESRCH) {
		return nil
	}
	return err
}

// CanRun reports why a run under the strongest isolation this machine has
// (Detect) could not start the program name, or nil when it can: the check
// every Run makes first, for callers that want a setup error at start-up
// rather than at the first run.
func CanRun(name string) error { return Detect().CanRun(name) }

// CanRun reports why a run under i (RunWith) could not start the program
// name, or nil when it can.
func (i Isolation) CanRun(name string) error {
	_, err := i.program(name)
	return err
}

// program resolves name, the program to run, to an absolute path, and
// checks that a run under iso can reach it.
func (i Isolation) program(name string) (string, error) {
	prog, err := exec.LookPath(name)
	if err != nil {
		return "", fmt.Errorf("sandbox: program %q not found: %w", name, err)
	}
	if prog, err = filepath.Abs(prog); err != nil {
		return "", fmt.Errorf("sandbox: program %q: %w", name, err)
	}
	if i.Unprivileged && i.bwrap == "" && !othersMayRun(prog) {
		return "", errUnreachable(prog, i)
	}
	return prog, nil
}

// writeFiles writes files into dir; names must stay inside dir.
func writeFiles(dir string, files map[string][]byte) error {
	for name, data := range files {
		if !filepath.IsLocal(name) {
			return fmt.Errorf("sandbox: file name %q must be a relative path inside the working directory", name)
		}
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return fmt.Errorf("sandbox: write %s: %w", name, err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			return fmt.Errorf("sandbox: write %s: %w", name, err)
		}
	}
	return nil
}
