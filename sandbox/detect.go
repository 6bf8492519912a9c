package sandbox

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Ways the network can be isolated (Isolation.Network).
const (
	// NetBwrap: bubblewrap (bwrap) makes the namespaces and a read-only
	// view of the file system.
	NetBwrap = "bwrap"
	// NetNamespace: a new network namespace, created directly (as root).
	NetNamespace = "netns"
	// NetUserNamespace: a new network namespace inside a new user namespace
	// (an unprivileged user, the user mapped to itself).
	NetUserNamespace = "userns+netns"
	// NetNone: the network is NOT isolated.
	NetNone = "none"
)

// Ways the CPU, memory and file-size limits can be set (Isolation.Limits).
const (
	// LimitsPrlimit: util-linux prlimit(1) sets the rlimits, then execs.
	LimitsPrlimit = "prlimit"
	// LimitsUlimit: `/bin/sh -c ulimit` sets CPU and memory rlimits.
	LimitsUlimit = "ulimit"
	// LimitsNone: only the wall-clock and output limits hold.
	LimitsNone = "none"
)

// Isolation says what a run is isolated from. Get it from Detect.
type Isolation struct {
	// Network is NetBwrap, NetNamespace, NetUserNamespace or NetNone.
	Network string
	// PID is true when the program runs in its own PID namespace.
	PID bool
	// ReadOnlyFS is true when the file system is read-only to the program
	// but for its working directory (bwrap), with every capability dropped.
	ReadOnlyFS bool
	// Limits is LimitsPrlimit, LimitsUlimit or LimitsNone.
	Limits string

	cloneflags uintptr
	userns     bool
	bwrap      string // path of bwrap
	tool       string // path of prlimit or sh
}

// NetworkIsolated reports whether runs without Spec.Network have no network.
func (i Isolation) NetworkIsolated() bool { return i.Network != NetNone && i.Network != "" }

// String describes the isolation in one line, for logs and Info maps.
func (i Isolation) String() string {
	var b strings.Builder
	if i.NetworkIsolated() {
		fmt.Fprintf(&b, "network: isolated (%s)", i.Network)
	} else {
		b.WriteString("network: NOT isolated")
	}
	if i.PID {
		b.WriteString("; processes: pid namespace + process group")
	} else {
		b.WriteString("; processes: process group only")
	}
	switch i.Limits {
	case LimitsPrlimit:
		b.WriteString("; limits: wall, output, cpu, memory, file size (prlimit)")
	case LimitsUlimit:
		b.WriteString("; limits: wall, output, cpu, memory (ulimit)")
	default:
		b.WriteString("; limits: wall, output only (no prlimit or sh)")
	}
	if i.ReadOnlyFS {
		b.WriteString("; files: read-only but a fresh temp dir as cwd (bwrap)")
	} else {
		b.WriteString("; files: fresh temp dir as cwd, file system NOT isolated")
	}
	return b.String()
}

var detected struct {
	once sync.Once
	all  []Isolation
}

// Detect returns the strongest isolation this machine allows: the first of
// Available.
func Detect() Isolation { return Available()[0] }

// Available returns every isolation that works on this machine, strongest
// first (bwrap, then the namespace setups, then none, which is always
// there). The machine is probed on the first call, by starting a trivial
// program under each mechanism, and the answer is cached for the life of
// the process. Pass one to RunWith to trade isolation for speed (bwrap
// costs some tens of milliseconds more per run than bare namespaces).
func Available() []Isolation {
	detected.once.Do(func() { detected.all = available() })
	return append([]Isolation(nil), detected.all...)
}

// available probes the machine (uncached) and returns every isolation that
// works here, strongest first; the last one has no namespaces.
func available() []Isolation {
	limits := Isolation{Network: NetNone, Limits: LimitsNone}
	probe, err := exec.LookPath("true")
	if err != nil {
		if probe, err = exec.LookPath("sh"); err != nil {
			return []Isolation{limits}
		}
	}
	if p, err := exec.LookPath("prlimit"); err == nil && runProbe(nil, p, "--core=0:0", "--", probe) == nil {
		limits.Limits, limits.tool = LimitsPrlimit, p
	} else if sh, err := exec.LookPath("sh"); err == nil && runProbe(nil, sh, "-c", `ulimit -c 0 && exec "$@"`, "sh", probe) == nil {
		limits.Limits, limits.tool = LimitsUlimit, sh
	}
	var out []Isolation
	if bw, err := exec.LookPath("bwrap"); err == nil {
		iso := limits
		iso.Network, iso.PID, iso.ReadOnlyFS, iso.bwrap = NetBwrap, true, true, bw
		if dir, err := os.MkdirTemp("", "gemgo-sandbox-probe-"); err == nil {
			if runProbe(nil, iso.bwrapArgs(dir, false, []string{probe})...) == nil {
				out = append(out, iso)
			}
			os.RemoveAll(dir)
		}
	}
	for _, c := range nsCandidates() {
		attr := &syscall.SysProcAttr{Setpgid: true}
		applyNamespaces(attr, c.flags, c.userns)
		if runProbe(attr, probe) == nil {
			iso := limits
			iso.Network, iso.PID, iso.cloneflags, iso.userns = c.name, c.pid, c.flags, c.userns
			out = append(out, iso)
		}
	}
	return append(out, limits)
}

// runProbe runs argv with attr and a short timeout.
func runProbe(attr *syscall.SysProcAttr, argv ...string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	if attr == nil {
		attr = &syscall.SysProcAttr{Setpgid: true}
	}
	cmd.SysProcAttr = attr
	cmd.Env = []string{"PATH=/usr/bin:/bin"}
	return cmd.Run()
}

// nsCandidate is one way to isolate the network, tried in order.
type nsCandidate struct {
	name   string
	flags  uintptr
	userns bool
	pid    bool
}

// argv returns the command line that runs prog with args in dir under the
// rlimits of lim and, in bwrap mode, inside bubblewrap.
func (i Isolation) argv(lim Limits, dir string, network bool, prog string, args []string) []string {
	cmd := i.wrap(lim, prog, args)
	if i.bwrap != "" {
		return i.bwrapArgs(dir, network, cmd)
	}
	return cmd
}

// bwrapArgs runs cmd under bwrap: the whole file system read-only, dir
// writable, fresh /dev and /proc, new namespaces (the network's unless
// network), cmd as pid 1, no capabilities, killed with its parent.
func (i Isolation) bwrapArgs(dir string, network bool, cmd []string) []string {
	argv := []string{i.bwrap,
		"--ro-bind", "/", "/",
		"--dev", "/dev",
		"--proc", "/proc",
		"--bind", dir, dir,
		"--chdir", dir,
		"--unshare-pid", "--as-pid-1", "--unshare-ipc", "--unshare-uts",
		"--cap-drop", "ALL",
		"--die-with-parent",
	}
	if !network {
		argv = append(argv, "--unshare-net")
	}
	return append(append(argv, "--"), cmd...)
}

// wrap returns the argv that runs prog with args under the rlimits of lim.
func (i Isolation) wrap(lim Limits, prog string, args []string) []string {
	cpu := cpuSeconds(lim.CPU)
	switch i.Limits {
	case LimitsPrlimit:
		argv := []string{i.tool,
			fmt.Sprintf("--cpu=%d:%d", cpu, cpu),
			fmt.Sprintf("--as=%d:%d", lim.MemoryBytes, lim.MemoryBytes),
			fmt.Sprintf("--fsize=%d:%d", lim.FileBytes, lim.FileBytes),
			"--core=0:0", "--", prog}
		return append(argv, args...)
	case LimitsUlimit:
		script := fmt.Sprintf(`ulimit -t %d && ulimit -v %d && ulimit -c 0 && exec "$@"`, cpu, (lim.MemoryBytes+1023)/1024)
		argv := []string{i.tool, "-c", script, "sh", prog}
		return append(argv, args...)
	}
	return append([]string{prog}, args...)
}

// cpuSeconds is d rounded up to whole seconds, at least 1 (RLIMIT_CPU's unit).
func cpuSeconds(d time.Duration) int64 {
	s := int64((d + time.Second - 1) / time.Second)
	return max(s, 1)
}

// attr returns the process attributes of a run: its own process group,
// killed with the parent, and the namespaces unless network is allowed.
func (i Isolation) attr(network bool) *syscall.SysProcAttr {
	a := &syscall.SysProcAttr{Setpgid: true}
	setPdeathsig(a)
	if !network && i.cloneflags != 0 {
		applyNamespaces(a, i.cloneflags, i.userns)
	}
	return a
}
