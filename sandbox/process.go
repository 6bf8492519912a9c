package sandbox

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// Process is a long-lived program started by Start: a server that talks
// over its standard input and output (an MCP stdio server), under the
// same isolation, uid and limits as a Run, for as long as its caller
// keeps it. Stdin and Stdout are the pipes; what it writes to stderr is
// kept (up to Limits.OutputBytes) for Stderr.
type Process struct {
	Stdin  io.WriteCloser
	Stdout io.ReadCloser

	sb      *sandboxed
	user    *runUser
	iso     Isolation
	stderr  *capture
	stop    context.CancelFunc
	done    chan struct{}
	closing sync.Once
}

// Start starts spec.Cmd under iso in spec.Dir (required: an existing
// directory given by its absolute path, kept after Close; with a uid per
// run it is given to the program's uid first, as for Run) and returns at
// once. Limits apply as for Run: Wall bounds the program's whole life,
// CPU its CPU time, MemoryBytes its address space. Spec.Files and
// Spec.Stdin are not used. Close the Process to end it.
func Start(ctx context.Context, spec Spec, iso Isolation) (*Process, error) {
	if len(spec.Cmd) == 0 || spec.Cmd[0] == "" {
		return nil, errors.New("sandbox: empty Spec.Cmd: give the program to run")
	}
	if err := spec.Limits.Validate(); err != nil {
		return nil, err
	}
	if fi, err := os.Stat(spec.Dir); err != nil || !fi.IsDir() || !filepath.IsAbs(spec.Dir) {
		return nil, fmt.Errorf("sandbox: Start: Spec.Dir %q must be an existing directory given by its absolute path", spec.Dir)
	}
	lim := spec.Limits.withDefaults()
	prog, err := iso.program(spec.Cmd[0])
	if err != nil {
		return nil, err
	}
	removeLeaked()
	p := &Process{iso: iso, done: make(chan struct{})}
	uid := -1
	if iso.Unprivileged {
		if p.user, err = acquireUser(); err != nil {
			return nil, err
		}
		if err := chownTree(spec.Dir, p.user.uid); err != nil {
			p.user.release(iso.sh)
			return nil, fmt.Errorf("sandbox: working directory: %w", err)
		}
		uid = p.user.uid
	}
	fail := func(err error) (*Process, error) {
		if p.user != nil {
			p.user.release(iso.sh)
		}
		return nil, err
	}
	wallCtx, stop := context.WithTimeout(ctx, lim.Wall)
	p.stop = stop
	sb, err := iso.command(wallCtx, lim, spec.Dir, spec.Network, prog, spec.Cmd[1:], uid, spec.Env)
	if err != nil {
		stop()
		return fail(err)
	}
	p.sb = sb
	p.stderr = &capture{limit: lim.OutputBytes, overflow: func() {}}
	sb.cmd.Stderr = p.stderr
	if p.Stdin, err = sb.cmd.StdinPipe(); err != nil {
		stop()
		return fail(fmt.Errorf("sandbox: %w", err))
	}
	if p.Stdout, err = sb.cmd.StdoutPipe(); err != nil {
		stop()
		return fail(fmt.Errorf("sandbox: %w", err))
	}
	sb.cmd.WaitDelay = 500 * time.Millisecond
	if err := sb.start(); err != nil {
		stop()
		sb.close()
		return fail(fmt.Errorf("sandbox: start %s: %w", spec.Cmd[0], err))
	}
	go func() {
		_ = sb.cmd.Wait()
		_ = killGroup(sb.cmd.Process.Pid)
		close(p.done)
	}()
	return p, nil
}

// Done is closed once the program has ended (it exited, or was killed at
// its wall limit or by Close).
func (p *Process) Done() <-chan struct{} { return p.done }

// Stderr returns what the program wrote to its standard error so far.
func (p *Process) Stderr() []byte {
	b, _ := p.stderr.bytes()
	return b
}

// Close kills the program and every process it started, waits for it, and
// frees its uid. It is safe to call more than once.
func (p *Process) Close() error {
	p.closing.Do(func() {
		_ = p.Stdin.Close()
		_ = p.sb.kill()
		<-p.done
		p.stop()
		p.sb.close()
		if p.user != nil {
			p.user.release(p.iso.sh)
		}
	})
	return nil
}
