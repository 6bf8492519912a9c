package sandbox

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
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
	// Unprivileged is true when the program runs as a uid of its own, a
	// fresh one per run that no passwd entry names, with no capabilities,
	// an empty bounding set and no_new_privs (setpriv(1) of util-linux, for
	// a root caller). Otherwise it runs as the caller's uid (UID).
	Unprivileged bool
	// OwnProc is true when the program's /proc shows its own PID namespace
	// only (bwrap, or a root caller's namespaces with mount(8)); otherwise
	// it sees the host's.
	OwnProc bool
	// UID is the caller's uid, the one the program runs as unless
	// Unprivileged.
	UID int

	cloneflags uintptr
	userns     bool
	bwrap      string // path of bwrap
	tool       string // path of prlimit or sh
	setpriv    string // path of setpriv, when Unprivileged
	sh         string // path of sh: kills a run's uid; mounts /proc (OwnProc without bwrap)
}

// NetworkIsolated reports whether runs without Spec.Network have no network.
func (i Isolation) NetworkIsolated() bool { return i.Network != NetNone && i.Network != "" }

// String describes the isolation in one line, for logs and Info maps: what
// the program is kept from and what it can still reach.
func (i Isolation) String() string {
	var b strings.Builder
	if i.NetworkIsolated() {
		fmt.Fprintf(&b, "network: isolated (%s)", i.Network)
	} else {
		b.WriteString("network: NOT isolated")
	}
	switch {
	case i.PID && i.Unprivileged:
		b.WriteString("; processes: pid namespace + process group, its uid's processes killed at the end")
	case i.PID:
		b.WriteString("; processes: pid namespace + process group")
	case i.Unprivileged:
		b.WriteString("; processes: process group, its uid's processes killed at the end (it sees the host's processes, and can signal none of them)")
	default:
		fmt.Fprintf(&b, "; processes: process group only (it can signal every process of uid %d, the caller included, and a child that leaves the group outlives the run)", i.UID)
	}
	switch {
	case i.Unprivileged:
		b.WriteString("; user: a fresh unprivileged uid per run, no capabilities")
	case i.UID == 0:
		b.WriteString("; user: root (uid 0)")
		if i.ReadOnlyFS {
			b.WriteString(", capabilities dropped")
		} else {
			b.WriteString(" with every capability")
		}
		b.WriteString(": it may read whatever uid 0 may")
	default:
		fmt.Fprintf(&b, "; user: the caller's (uid %d): it may read whatever uid %d may", i.UID, i.UID)
	}
	switch {
	case i.OwnProc:
		b.WriteString("; /proc: its own")
	case i.Unprivileged:
		b.WriteString("; /proc: the host's (it lists the host's processes, not their environment)")
	default:
		fmt.Fprintf(&b, "; /proc: the host's (it may read the environment of uid %d's processes, the caller's included)", i.UID)
	}
	switch i.Limits {
	case LimitsPrlimit:
		b.WriteString("; limits: wall, output, cpu, memory, file size")
		if i.Unprivileged {
			b.WriteString(", processes")
		}
		b.WriteString(" (prlimit)")
	case LimitsUlimit:
		b.WriteString("; limits: wall, output, cpu, memory (ulimit; file size NOT limited)")
	default:
		b.WriteString("; limits: wall, output only (no prlimit or sh: cpu, memory, file size NOT limited)")
	}
	if !i.Unprivileged || i.Limits != LimitsPrlimit {
		b.WriteString(", the number of processes NOT limited")
	}
	switch {
	case i.ReadOnlyFS:
		b.WriteString("; files: read-only but a fresh temp dir as cwd (bwrap)")
	case i.Unprivileged:
		b.WriteString("; files: fresh temp dir as cwd, file system NOT isolated: it sees it as any other user does (it may read world-readable files and write world-writable dirs such as /tmp)")
	default:
		fmt.Fprintf(&b, "; files: fresh temp dir as cwd, file system NOT isolated: it may read and write whatever uid %d may", i.UID)
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

// Pick returns the available isolation whose Network is name, or the
// strongest for "" and "auto": how an env's isolation option is read.
func Pick(name string) (Isolation, error) {
	all := Available()
	if name == "" || name == "auto" {
		return all[0], nil
	}
	var names []string
	for _, iso := range all {
		if iso.Network == name {
			return iso, nil
		}
		names = append(names, iso.Network)
	}
	return Isolation{}, fmt.Errorf("isolation %q is not available on this machine (available: auto, %s)", name, strings.Join(names, ", "))
}

// available probes the machine (uncached) and returns every isolation that
// works here, strongest first; the last one has no namespaces.
func available() []Isolation {
	limits := Isolation{Network: NetNone, Limits: LimitsNone, UID: os.Getuid()}
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
	limits.sh, _ = exec.LookPath("sh")
	// A root caller runs each program as a uid of its own (user_linux.go).
	if sp, err := exec.LookPath("setpriv"); err == nil && os.Geteuid() == 0 && limits.sh != "" {
		if u, err := acquireUser(); err == nil {
			try := limits
			try.Unprivileged, try.setpriv = true, sp
			if runProbe(nil, try.dropArgs(u.uid, []string{probe})...) == nil {
				limits = try
			}
			u.release(limits.sh)
		}
	}
	var out []Isolation
	if bw, err := exec.LookPath("bwrap"); err == nil {
		iso := limits
		iso.Network, iso.PID, iso.ReadOnlyFS, iso.OwnProc, iso.bwrap = NetBwrap, true, true, true, bw
		if ok := iso.probe(probe); ok {
			out = append(out, iso)
		}
	}
	seen := map[string]bool{}
	for _, c := range nsCandidates() {
		key := fmt.Sprint(c.name, c.pid)
		if seen[key] || (c.proc && (!limits.Unprivileged || limits.sh == "")) {
			continue
		}
		iso := limits
		iso.Network, iso.PID, iso.OwnProc, iso.cloneflags, iso.userns = c.name, c.pid, c.proc, c.flags, c.userns
		if iso.probe(probe) {
			seen[key] = true
			out = append(out, iso)
		}
	}
	return append(out, limits)
}

// probe reports whether the program probe runs under iso (as a run of it
// would, in a fresh work directory).
func (i Isolation) probe(probe string) bool {
	dir, err := os.MkdirTemp("", workDirPattern("probe-"))
	if err != nil {
		return false
	}
	defer os.RemoveAll(dir)
	uid := -1
	if i.Unprivileged {
		u, err := acquireUser()
		if err != nil {
			return false
		}
		defer u.release(i.sh)
		if chownTree(dir, u.uid) != nil {
			return false
		}
		uid = u.uid
	}
	argv := i.argv(DefaultLimits(), dir, false, probe, nil, uid)
	return runProbe(i.attr(false), argv...) == nil
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
	proc   bool // a mount namespace with a /proc of the new PID namespace
}

// argv returns the command line that runs prog with args in dir under the
// rlimits of lim, as uid when Unprivileged, and in bwrap mode inside
// bubblewrap.
func (i Isolation) argv(lim Limits, dir string, network bool, prog string, args []string, uid int) []string {
	cmd := i.wrap(lim, prog, args)
	if i.Unprivileged {
		cmd = i.dropArgs(uid, cmd)
	}
	if i.bwrap != "" {
		return i.bwrapArgs(dir, network, prog, cmd)
	}
	if i.OwnProc && i.nsFlags(network)&cloneNewPID != 0 {
		// In the run's own mount namespace (attr: private propagation, so
		// nothing reaches the host), /proc of its PID namespace and a
		// fresh /dev/shm of at most FileBytes, gone with the namespace.
		shm := lim.FileBytes
		if shm <= 0 {
			shm = DefaultLimits().FileBytes
		}
		script := fmt.Sprintf(`mount -t proc -o nosuid,nodev,noexec proc /proc && `+
			`{ [ ! -d /dev/shm ] || mount -t tmpfs -o size=%d,mode=1777,nosuid,nodev,noexec tmpfs /dev/shm; } && exec "$@"`, shm)
		cmd = append([]string{i.sh, "-c", script, "sh"}, cmd...)
	}
	return cmd
}

// dropArgs runs cmd as uid (and gid uid, no supplementary groups) with no
// capabilities, an empty bounding set and no_new_privs, so that neither a
// setuid program nor file capabilities can give privileges back.
func (i Isolation) dropArgs(uid int, cmd []string) []string {
	id := strconv.Itoa(uid)
	return append([]string{i.setpriv, "--reuid=" + id, "--regid=" + id, "--clear-groups",
		"--inh-caps=-all", "--bounding-set=-all", "--no-new-privs", "--"}, cmd...)
}

// bwrapArgs runs cmd under bwrap: the whole file system read-only, dir
// writable, fresh /dev and /proc, new namespaces (the network's unless
// network), cmd as pid 1 in a session of its own, killed with its parent.
// Unprivileged, cmd drops to its uid itself (setpriv needs bwrap's
// capabilities to do so), and a directory on the way to prog that other
// users may not search (a root-only home holding the interpreter) is
// replaced by an empty one with only the next step of the way mounted
// back, read-only; otherwise bwrap drops every capability.
func (i Isolation) bwrapArgs(dir string, network bool, prog string, cmd []string) []string {
	argv := []string{i.bwrap,
		"--ro-bind", "/", "/",
		"--dev", "/dev",
		"--proc", "/proc",
	}
	if i.Unprivileged {
		for _, d := range blockedDirs(filepath.Dir(prog)) {
			next := filepath.Join(d, strings.SplitN(strings.TrimPrefix(prog, d+"/"), "/", 2)[0])
			argv = append(argv, "--tmpfs", d, "--ro-bind", next, next)
		}
	}
	argv = append(argv,
		"--bind", dir, dir,
		"--chdir", dir,
		"--unshare-pid", "--as-pid-1", "--unshare-ipc", "--unshare-uts",
		"--die-with-parent",
	)
	if i.Unprivileged {
		argv = append(argv, "--new-session")
	} else {
		argv = append(argv, "--cap-drop", "ALL")
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
			"--core=0:0"}
		if i.Unprivileged && lim.Processes > 0 {
			// RLIMIT_NPROC counts the processes and threads of the real
			// uid: with a uid per run, exactly this run's.
			argv = append(argv, fmt.Sprintf("--nproc=%d:%d", lim.Processes, lim.Processes))
		}
		argv = append(argv, "--", prog)
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

// nsFlags are the clone flags of a run: the network namespace's only
// unless network is allowed (the PID namespace stays).
func (i Isolation) nsFlags(network bool) uintptr {
	f := i.cloneflags
	if network {
		f &^= cloneNewNet
	}
	return f
}

// pidOne reports whether a run's program is pid 1 of a PID namespace of
// its own (bwrap's --as-pid-1, or the clone flags).
func (i Isolation) pidOne(network bool) bool {
	return i.bwrap != "" || i.nsFlags(network)&cloneNewPID != 0
}

// attr returns the process attributes of a run: its own process group,
// killed with the parent, and the namespaces (the network's unless
// network is allowed).
func (i Isolation) attr(network bool) *syscall.SysProcAttr {
	a := &syscall.SysProcAttr{Setpgid: true}
	setPdeathsig(a)
	if f := i.nsFlags(network); f != 0 {
		applyNamespaces(a, f, i.userns, i.OwnProc)
	}
	return a
}
