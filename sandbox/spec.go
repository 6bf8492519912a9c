package sandbox

import (
	"fmt"
	"time"
)

// Limits bounds one run. A zero field takes its default (see DefaultLimits).
type Limits struct {
	// Wall is the wall-clock limit, from start to exit.
	Wall time.Duration
	// CPU is the CPU-time limit (user + system), enforced by RLIMIT_CPU in
	// whole seconds, rounded up.
	CPU time.Duration
	// MemoryBytes is the address-space limit (RLIMIT_AS).
	MemoryBytes int64
	// OutputBytes is the most bytes kept of stdout, and of stderr; one more
	// kills the program.
	OutputBytes int64
	// FileBytes is the largest file the program may write (RLIMIT_FSIZE).
	FileBytes int64
	// Processes caps the processes and threads the program may have at
	// once (RLIMIT_NPROC of its own uid): it holds only where the run has a
	// uid of its own (Isolation.Unprivileged).
	Processes int
}

// DefaultLimits returns the limits a zero Limits field takes.
func DefaultLimits() Limits {
	return Limits{
		Wall:        10 * time.Second,
		CPU:         10 * time.Second,
		MemoryBytes: 512 << 20,
		OutputBytes: 1 << 20,
		FileBytes:   16 << 20,
		Processes:   128,
	}
}

// withDefaults fills the zero fields of l.
func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	if l.Wall == 0 {
		l.Wall = d.Wall
	}
	if l.CPU == 0 {
		l.CPU = d.CPU
	}
	if l.MemoryBytes == 0 {
		l.MemoryBytes = d.MemoryBytes
	}
	if l.OutputBytes == 0 {
		l.OutputBytes = d.OutputBytes
	}
	if l.FileBytes == 0 {
		l.FileBytes = d.FileBytes
	}
	if l.Processes == 0 {
		l.Processes = d.Processes
	}
	return l
}

// Validate reports a negative limit.
func (l Limits) Validate() error {
	switch {
	case l.Wall < 0:
		return fmt.Errorf("sandbox: Limits.Wall = %v: want > 0 (0 takes the default)", l.Wall)
	case l.CPU < 0:
		return fmt.Errorf("sandbox: Limits.CPU = %v: want > 0 (0 takes the default)", l.CPU)
	case l.MemoryBytes < 0:
		return fmt.Errorf("sandbox: Limits.MemoryBytes = %d: want > 0 (0 takes the default)", l.MemoryBytes)
	case l.OutputBytes < 0:
		return fmt.Errorf("sandbox: Limits.OutputBytes = %d: want > 0 (0 takes the default)", l.OutputBytes)
	case l.FileBytes < 0:
		return fmt.Errorf("sandbox: Limits.FileBytes = %d: want > 0 (0 takes the default)", l.FileBytes)
	case l.Processes < 0:
		return fmt.Errorf("sandbox: Limits.Processes = %d: want > 0 (0 takes the default)", l.Processes)
	}
	return nil
}

// Spec is one program to run.
type Spec struct {
	// Cmd is the program and its arguments. Cmd[0] is looked up on the
	// caller's PATH; relative arguments resolve in the working directory.
	Cmd []string
	// Files are written into the fresh working directory before the start
	// (name relative to it, no "..").
	Files map[string][]byte
	// Stdin is the program's standard input.
	Stdin []byte
	// Env holds extra environment variables ("KEY=value") added to the
	// minimal environment (PATH, HOME, PWD, TMPDIR, LANG, LC_ALL and
	// MALLOC_ARENA_MAX=1, see the package doc).
	Env []string
	// Limits bounds the run.
	Limits Limits
	// Network allows network access (no network namespace). The zero
	// value, false, isolates the network where the machine allows it.
	Network bool
	// Dir, when set, is an existing directory (an absolute path) to run
	// in instead of a fresh temporary one: a multi-step caller (a terminal
	// episode) keeps its files from one run to the next. The caller owns
	// it: it is not removed after the run, and it must not sit at the top
	// of a shared temp dir (/tmp), where a uid-per-run release would remove
	// it. With a uid per run, everything in it but hard-linked files is
	// given to the run's uid first (symbolic links are not followed).
	Dir string
}

// Status says how a run ended.
type Status string

// The statuses of a run.
const (
	// StatusOK: the program exited with code 0 within every limit.
	StatusOK Status = "ok"
	// StatusRuntimeError: the program exited with a non-zero code or was
	// killed by a signal that no limit explains.
	StatusRuntimeError Status = "runtime_error"
	// StatusTimeout: the wall-clock limit was reached.
	StatusTimeout Status = "timeout"
	// StatusCPULimit: the CPU-time limit was reached.
	StatusCPULimit Status = "cpu_limit"
	// StatusMemoryLimit: an allocation failed under the memory limit.
	StatusMemoryLimit Status = "memory_limit"
	// StatusOutputLimit: the program wrote more than Limits.OutputBytes.
	StatusOutputLimit Status = "output_limit"
)

// Result is what a run did.
type Result struct {
	Status Status
	// ExitCode is the exit code, or -1 when a signal ended the program.
	ExitCode int
	// Signal names the signal that ended the program ("" if none).
	Signal string
	// Stdout and Stderr hold at most Limits.OutputBytes each.
	Stdout, Stderr []byte
	// Truncated is true when output was cut at Limits.OutputBytes.
	Truncated bool
	// Wall is the elapsed time; CPU the user + system time of the program
	// and its waited-for children.
	Wall, CPU time.Duration
	// Isolation is what was in force for this run.
	Isolation Isolation
	// Dir is the working directory the program ran in (removed after the
	// run): a caller that shows stderr may want to strip it, since it
	// differs from run to run.
	Dir string
}

// OK reports whether the run ended with StatusOK.
func (r Result) OK() bool { return r.Status == StatusOK }
