package sandbox

import (
	"bufio"
	"context"
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"syscall"
	"time"
)

// zygoteScript is the program of the warm interpreter: it serves the
// requests of a PythonServer, one forked child per call.
//
//go:embed zygote.py
var zygoteScript string

// DefaultRecycle is the number of calls one interpreter of a PythonServer
// serves before a fresh one replaces it.
const DefaultRecycle = 64

const (
	// serverMargin is how long past a call's wall limit the interpreter
	// may take to answer before it is killed.
	serverMargin = time.Second
	// startTimeout bounds the start of an interpreter (site included) on a
	// loaded machine.
	startTimeout = 30 * time.Second
)

// ErrServerStart is wrapped by the error of a PythonServer whose
// interpreter did not start.
var ErrServerStart = errors.New("sandbox: python server did not start")

// PythonServer runs Python programs as Run runs `python3 -I main.py`,
// under the same isolation and limits, but without starting an
// interpreter per call: a long-lived interpreter (the zygote), started
// once with site imported, forks one child per call.
//
// The zygote runs as Run runs a program: the same command line around
// `python3 -I -c <script>` (bwrap, setpriv to a uid of its own, prlimit),
// the same environment, process attributes, namespaces (no network) and
// the rlimits of the Limits it was started with, but for RLIMIT_CPU, which
// is the call's CPU limit times Recycle + 1 (the child sets its own), and
// RLIMIT_NPROC, one more than Limits.Processes (the zygote is one of the
// uid's processes). It reads requests on a pipe and, for each, writes the
// code to main.py in a fresh directory of its work directory and forks.
// The child starts a session (and process group) of its own, takes stdin
// from a pipe fed with the call's stdin, stdout and stderr to pipes, sets
// RLIMIT_CPU to the call's CPU limit, chdirs into the directory (HOME,
// PWD and TMPDIR point to it), drops every module the zygote imported
// beyond those that `python3 -I` imports, and runs the code in a fresh
// __main__ module, with sys.argv ["main.py"] and the file name of the
// code main.py in that directory: globals, tracebacks, exit codes and
// SystemExit are those of a fresh interpreter. The zygote enforces the
// wall limit and the output limit (killing the child's process group),
// collects the exit status and the child's CPU time (its rusage), and
// then kills the child's process group and, where every process it can
// signal is the sandbox's own (it is pid 1 of a PID namespace, or the
// sandbox has a uid of its own), every other process but itself: nothing
// a call started outlives it. Last, it empties its work directory. The
// zygote is not dumpable, so that a call's program, of the same uid,
// cannot trace it or open its /proc files.
//
// What one call can still leave to the next, until the zygote is
// recycled: files written outside the work directory where the file
// system is writable (as for Run), and, where the zygote cannot sweep
// (no PID namespace and no uid of its own), processes that left the
// call's process group. The zygote is recycled (the whole sandbox killed,
// a fresh one started at the next call) after Recycle calls, after a call
// that ended at the wall, CPU or output limit, when a call's memory,
// file, process or CPU limits differ from those it was started with, and
// whenever anything looks wrong: it does not answer within the wall limit
// plus a second (the call gets StatusTimeout), it exited, or it answered
// something else than the protocol. A zygote that died between calls is
// replaced before the next one, transparently; a call the zygote did not
// acknowledge is retried once on a fresh zygote.
//
// Differences from Run that a program can see: it is not pid 1 of its
// PID namespace (it has a parent, and a signal it sends itself is not
// ignored); every call of one zygote has the same hash seed (the zygote's:
// hash randomization is per zygote, not per call); the call's directory is
// a subdirectory of the zygote's work directory; a stack it prints itself
// (traceback.print_stack) shows the zygote's frame below main.py's; and
// sys.getrecursionlimit reports the limit raised by the two frames below
// main.py, so that deep recursion fails at the depth, and with the
// traceback, of a fresh interpreter. At exit the child does what a fresh
// interpreter's exit shows (waits for its threads, runs atexit, flushes
// stdout and stderr, clears __main__) and skips the rest of the teardown.
// Where the zygote is not pid 1 of a PID namespace, a call can kill it:
// Run then returns an error.
//
// The frames on the pipes, all integers 8-byte big-endian: the zygote
// sends "R" + its pid once started; a request is the CPU limit (whole
// seconds), the wall limit (ns), the output limit (bytes), the length of
// the code and of stdin, a reserved 0, then code and stdin; the zygote
// acknowledges it with "A" and answers "D" + the wait status, the CPU
// time (ns), the wall time (ns), flags (1: wall limit, 2: output limit),
// the lengths of the directory, stdout and stderr, then those bytes; or
// "E" + a length + a message, and exits.
//
// A PythonServer is safe for concurrent use; its calls run one at a time.
// Close it to stop its interpreter.
type PythonServer struct {
	python  string
	iso     Isolation
	recycle int
	noSite  bool

	mu       sync.Mutex
	z        *zygote // nil until the first call and after a recycle
	closed   bool
	stopping sync.WaitGroup // zygotes being stopped in the background
}

// NewPythonServer returns a server of the interpreter python (a path or a
// command on PATH; FindPython resolves one) under the isolation Detect
// reports. Each zygote serves recycle calls (0: DefaultRecycle). Nothing
// starts until the first Run or Start.
func NewPythonServer(python string, recycle int) *PythonServer {
	return NewPythonServerWith(python, Detect(), recycle)
}

// NewPythonServerWith is NewPythonServer under iso, one of Available.
func NewPythonServerWith(python string, iso Isolation, recycle int) *PythonServer {
	if recycle <= 0 {
		recycle = DefaultRecycle
	}
	return &PythonServer{python: python, iso: iso, recycle: recycle}
}

// NoSite makes every call run as `python3 -I -S main.py` would: without
// the site module, so that only the standard library imports (the code
// judge's setting). Call it before the first Run or Start.
func (s *PythonServer) NoSite() *PythonServer {
	s.noSite = true
	return s
}

// Start starts the zygote for calls under lim now, rather than at the
// first Run. The error wraps ErrServerStart when it did not start.
func (s *PythonServer) Start(ctx context.Context, lim Limits) error {
	if err := lim.Validate(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	_, err := s.ready(ctx, lim.withDefaults())
	return err
}

// Run runs code as main.py with stdin under lim, in the zygote, and
// returns what Run returns for `python3 -I main.py`: the same Status
// classification, output, exit code or signal, wall and CPU time, and Dir,
// the call's directory (removed after the call). It returns an error when
// ctx was cancelled, when no zygote could be started (wrapping
// ErrServerStart), or when the zygote died during the call.
func (s *PythonServer) Run(ctx context.Context, code, stdin []byte, lim Limits) (Result, error) {
	if err := lim.Validate(); err != nil {
		return Result{}, err
	}
	lim = lim.withDefaults()
	s.mu.Lock()
	defer s.mu.Unlock()
	for attempt := 0; ; attempt++ {
		z, err := s.ready(ctx, lim)
		if err != nil {
			return Result{}, err
		}
		res, ran, err := z.call(ctx, code, stdin, lim, s.iso)
		z.calls++
		switch {
		case err != nil, z.calls >= s.recycle,
			res.Status == StatusTimeout, res.Status == StatusCPULimit, res.Status == StatusOutputLimit:
			s.retire()
		}
		if err != nil && !ran && attempt == 0 && ctx.Err() == nil {
			continue // the code did not run: once more, on a fresh zygote
		}
		return res, err
	}
}

// Close stops the zygote and waits for every zygote being stopped. Run
// fails after Close.
func (s *PythonServer) Close() error {
	s.mu.Lock()
	s.closed = true
	if z := s.z; z != nil {
		s.z = nil
		z.stop(s.iso)
	}
	s.mu.Unlock()
	s.stopping.Wait()
	return nil
}

// ready returns a zygote for calls under lim, starting one if needed.
func (s *PythonServer) ready(ctx context.Context, lim Limits) (*zygote, error) {
	if s.closed {
		return nil, errors.New("sandbox: python server used after Close")
	}
	if z := s.z; z != nil {
		select {
		case <-z.done:
			s.retire() // died between calls
		default:
			if z.lim.CPU == lim.CPU && z.lim.MemoryBytes == lim.MemoryBytes &&
				z.lim.FileBytes == lim.FileBytes && z.lim.Processes == lim.Processes {
				return z, nil
			}
			s.retire()
		}
	}
	z, err := startZygote(ctx, s.python, s.iso, lim, s.recycle, s.noSite)
	if err != nil {
		return nil, err
	}
	s.z = z
	return z, nil
}

// retire stops the current zygote in the background.
func (s *PythonServer) retire() {
	z := s.z
	if z == nil {
		return
	}
	s.z = nil
	s.stopping.Add(1)
	go func() {
		defer s.stopping.Done()
		z.stop(s.iso)
	}()
}

// zygote is one running warm interpreter.
type zygote struct {
	sb     *sandboxed
	req    *os.File // the write end of its stdin
	rep    *os.File // the read end of its stdout
	in     *bufio.Reader
	stderr *capture
	user   *runUser // its uid, when the isolation gives it one
	dir    string   // its work directory
	lim    Limits   // what it was started for
	calls  int
	done   chan struct{} // closed when it has exited
}

// startZygote starts a zygote for calls under lim and waits until it is
// ready.
func startZygote(ctx context.Context, python string, iso Isolation, lim Limits, recycle int, noSite bool) (*zygote, error) {
	fail := func(err error) error { return fmt.Errorf("%w: %v", ErrServerStart, err) }
	prog, err := iso.program(python)
	if err != nil {
		return nil, fail(err)
	}
	removeLeaked()
	dir, err := os.MkdirTemp("", workDirPattern(""))
	if err != nil {
		return nil, fail(fmt.Errorf("working directory: %w", err))
	}
	z := &zygote{dir: dir, lim: lim, done: make(chan struct{}), stderr: &capture{limit: 16 << 10, overflow: func() {}}}
	uid := -1
	if iso.Unprivileged {
		if z.user, err = acquireUser(); err != nil {
			os.RemoveAll(dir)
			return nil, fail(err)
		}
		uid = z.user.uid
		if err := chownTree(dir, uid); err != nil {
			z.user.release(iso.sh)
			os.RemoveAll(dir)
			return nil, fail(fmt.Errorf("working directory: %w", err))
		}
	}
	zlim := lim
	zlim.CPU = time.Duration(cpuSeconds(lim.CPU)*int64(recycle+1)) * time.Second
	zlim.Processes = lim.Processes + 1
	sweep := "0"
	if iso.Unprivileged {
		sweep = "1"
	}
	sb, err := iso.command(context.Background(), zlim, dir, false, prog, zygoteArgs(noSite, dir, sweep), uid, nil)
	if err == nil {
		z.sb = sb
		err = z.spawn()
	}
	if err != nil {
		z.stop(iso)
		return nil, fail(err)
	}
	// The ready frame: "R" + the zygote's pid.
	deadline := time.Now().Add(startTimeout)
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	_ = z.rep.SetReadDeadline(deadline)
	stop := context.AfterFunc(ctx, func() { _ = z.rep.SetReadDeadline(time.Now()) })
	defer stop()
	var ready [9]byte
	if _, err := io.ReadFull(z.in, ready[:]); err != nil || ready[0] != 'R' {
		z.stop(iso)
		if ctx.Err() != nil {
			return nil, fmt.Errorf("sandbox: start python server: %w", ctx.Err())
		}
		out, _ := z.stderr.bytes()
		return nil, fail(fmt.Errorf("%s did not answer (%v): %s", python, err, out))
	}
	return z, nil
}

// zygoteArgs is the zygote's command line after the interpreter.
func zygoteArgs(noSite bool, dir, sweep string) []string {
	if noSite {
		return []string{"-I", "-S", "-c", zygoteScript, dir, sweep, "-S"}
	}
	return []string{"-I", "-c", zygoteScript, dir, sweep}
}

// spawn starts the zygote's process with its pipes.
func (z *zygote) spawn() error {
	reqR, reqW, err := os.Pipe()
	if err != nil {
		return err
	}
	repR, repW, err := os.Pipe()
	if err != nil {
		reqR.Close()
		reqW.Close()
		return err
	}
	z.req, z.rep, z.in = reqW, repR, bufio.NewReaderSize(repR, 64<<10)
	cmd := z.sb.cmd
	cmd.Stdin, cmd.Stdout, cmd.Stderr = reqR, repW, z.stderr
	cmd.WaitDelay = 500 * time.Millisecond
	err = z.sb.start()
	reqR.Close()
	repW.Close()
	if err != nil {
		close(z.done)
		return err
	}
	go func() {
		_ = cmd.Wait()
		z.sb.close()
		close(z.done)
	}()
	return nil
}

// stop kills the zygote's sandbox, waits for it (a few seconds at most)
// and frees its uid and work directory.
func (z *zygote) stop(iso Isolation) {
	if z.req != nil {
		z.req.Close()
	}
	if z.sb != nil && z.sb.cmd.Process != nil {
		_ = z.sb.kill()
		_ = killGroup(z.sb.cmd.Process.Pid)
		select {
		case <-z.done:
		case <-time.After(5 * time.Second):
		}
	}
	if z.rep != nil {
		z.rep.Close()
	}
	if z.user != nil {
		z.user.release(iso.sh)
	}
	os.RemoveAll(z.dir)
}

// call sends one request and reads the answer. ran is false when the
// zygote failed before it could have run the code.
func (z *zygote) call(ctx context.Context, code, stdin []byte, lim Limits, iso Isolation) (res Result, ran bool, err error) {
	select {
	case <-z.done:
		return Result{}, false, errors.New("sandbox: python server exited")
	default:
	}
	start := time.Now()
	deadline := start.Add(lim.Wall + serverMargin)
	_ = z.req.SetWriteDeadline(deadline)
	_ = z.rep.SetReadDeadline(deadline)
	stop := context.AfterFunc(ctx, func() {
		_ = z.req.SetWriteDeadline(time.Now())
		_ = z.rep.SetReadDeadline(time.Now())
	})
	defer stop()
	failed := func(ran bool, err error) (Result, bool, error) {
		switch {
		case ctx.Err() != nil:
			return Result{}, ran, fmt.Errorf("sandbox: python server: %w", ctx.Err())
		case errors.Is(err, os.ErrDeadlineExceeded):
			// No answer within the wall limit and the margin: the call
			// gets the wall limit's verdict, and the zygote is recycled.
			return Result{Status: StatusTimeout, ExitCode: -1, Signal: syscall.SIGKILL.String(), Wall: time.Since(start), Isolation: iso}, true, nil
		}
		out, _ := z.stderr.bytes()
		return Result{}, ran, fmt.Errorf("sandbox: python server: %w (its stderr: %q)", err, out)
	}

	msg := make([]byte, 0, 48+len(code)+len(stdin))
	for _, v := range []int64{cpuSeconds(lim.CPU), int64(lim.Wall), lim.OutputBytes, int64(len(code)), int64(len(stdin)), 0} {
		msg = binary.BigEndian.AppendUint64(msg, uint64(v))
	}
	msg = append(append(msg, code...), stdin...)
	if _, err := z.req.Write(msg); err != nil {
		return failed(false, err)
	}
	kind, err := z.in.ReadByte()
	if err != nil || kind != 'A' {
		return failed(false, protocolErr(err, kind, 'A'))
	}
	if kind, err = z.in.ReadByte(); err != nil {
		return failed(true, err)
	}
	switch kind {
	case 'D':
	case 'E':
		text, err := z.readBytes(1, -1)
		if err != nil {
			return failed(false, err)
		}
		return failed(false, fmt.Errorf("%s", text[0]))
	default:
		return failed(true, protocolErr(nil, kind, 'D'))
	}
	head, err := z.readInts(4)
	if err != nil {
		return failed(true, err)
	}
	data, err := z.readBytes(3, lim.OutputBytes)
	if err != nil {
		return failed(true, err)
	}
	ws := syscall.WaitStatus(uint32(head[0]))
	res = Result{CPU: time.Duration(head[1]), Wall: time.Duration(head[2]), ExitCode: ws.ExitStatus(), Isolation: iso,
		Dir: string(data[0]), Stdout: data[1], Stderr: data[2], Truncated: head[3]&2 != 0}
	var sig syscall.Signal
	if ws.Signaled() {
		sig = ws.Signal()
		res.Signal, res.ExitCode = sig.String(), -1
	}
	var cause error
	switch {
	case head[3]&2 != 0:
		cause = errOutput
	case head[3]&1 != 0:
		cause = errWall
	}
	res.Status = classify(res, sig, cause, lim, iso)
	return res, true, nil
}

// readInts reads n integers.
func (z *zygote) readInts(n int) ([]int64, error) {
	buf := make([]byte, 8*n)
	if _, err := io.ReadFull(z.in, buf); err != nil {
		return nil, err
	}
	out := make([]int64, n)
	for i := range out {
		out[i] = int64(binary.BigEndian.Uint64(buf[8*i:]))
	}
	return out, nil
}

// readBytes reads n lengths, then that many byte strings, each at most
// limit bytes (-1: 64 KiB) past the 4 KiB a directory name may take.
func (z *zygote) readBytes(n int, limit int64) ([][]byte, error) {
	lens, err := z.readInts(n)
	if err != nil {
		return nil, err
	}
	if limit < 0 {
		limit = 64 << 10
	}
	out := make([][]byte, n)
	for i, l := range lens {
		if l < 0 || l > limit+4096 {
			return nil, fmt.Errorf("a frame of %d bytes", l)
		}
		if l == 0 {
			continue // nil, as Run leaves an output nothing was written to
		}
		out[i] = make([]byte, l)
		if _, err := io.ReadFull(z.in, out[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// protocolErr explains an unexpected frame.
func protocolErr(err error, got, want byte) error {
	if err != nil {
		return err
	}
	return fmt.Errorf("got frame %q, want %q", got, want)
}
