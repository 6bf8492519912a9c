// Package sandbox runs one program under limits: a wall-clock limit, a CPU
// time limit, an address-space (memory) limit, a cap on the bytes of output
// kept, a fresh temporary working directory, a minimal environment and, where
// the machine allows it, no network.
//
//	res, err := sandbox.Run(ctx, sandbox.Spec{
//		Cmd:    []string{python, "-I", "-S", "main.py"},
//		Files:  map[string][]byte{"main.py": code},
//		Stdin:  []byte("1 2\n"),
//		Limits: sandbox.Limits{Wall: 2 * time.Second, CPU: time.Second, MemoryBytes: 256 << 20, OutputBytes: 64 << 10},
//	})
//
// Run returns an error only when the program could not be started or the
// caller's context was cancelled; what the program did (exit code, timeout,
// memory limit, output limit, ...) is in Result.Status.
//
// # What is isolated
//
// Detect probes the machine once (the answer is cached) and says which
// isolation is in force; Isolation.String, meant for logs and Info maps,
// names what the program is kept from and what it can still reach, in
// every mode. TestHostileSet runs 26 hostile programs (read /etc/shadow,
// kill the parent, a double-forked setsid child, a fork bomb, the network,
// writes outside the working directory, the caller's environment through
// /proc, huge output, threads, ...) under every mode the machine offers
// and checks that each is contained or that String says it is not.
//
//   - User. A root caller runs every program as a uid of its own, a fresh
//     one per run from a range no passwd entry names (2000000000 on),
//     with no capabilities, an empty bounding set and no_new_privs
//     (setpriv(1) of util-linux), in every mode (Isolation.Unprivileged).
//     The program cannot read root-only files (/etc/shadow), write the
//     caller's files, or signal or trace the caller or another run. The
//     working directory is given to that uid. A program the uid cannot
//     run (an interpreter under a root-only home) is mounted in read-only
//     under bwrap; in the other modes Run refuses it, naming the
//     directory in the way. A caller that is not root runs programs as
//     itself: they may read what the caller may (bwrap: read only).
//   - Network and files, with bubblewrap: where bwrap(1) is installed and
//     works, the program runs under it with new network, PID, IPC and UTS
//     namespaces (the network namespace has only its own loopback: a
//     connection to the host's 127.0.0.1 is refused), the whole file
//     system mounted read-only but for the working directory, fresh /dev
//     and /proc (Isolation.ReadOnlyFS, OwnProc), in a session of its own.
//     bwrap reports a program killed by signal n as exit code 128+n.
//   - Network without bubblewrap: the program is started in a new network
//     namespace (Linux clone flag CLONE_NEWNET, the kernel mechanism behind
//     `unshare -n`), whose only interface is a loopback that is down: every
//     connect, even to 127.0.0.1, fails. As root this needs nothing else,
//     and the run also gets a mount namespace with a /proc of its own
//     PID namespace (mount(8)); as another user it needs unprivileged user
//     namespaces (CLONE_NEWUSER, the user mapped to itself) and the
//     program sees the host's /proc. As root, /dev/shm is a fresh tmpfs of
//     the run's own too, of at most Limits.FileBytes, gone with the run.
//     The file system is NOT isolated: the program sees it as its uid may,
//     by absolute path (world-readable files, world-writable directories
//     such as /tmp, and /dev/shm but as root). Where
//     no namespace works the network is NOT isolated either, and
//     Isolation.Network says "none". Spec.Network = true turns the network
//     isolation off for one run (the PID namespace stays).
//   - Processes: a new PID namespace comes with the network namespace (in
//     both modes; bwrap runs with --as-pid-1): the program is its pid 1,
//     sees only its own children through kill(2), and when it dies the
//     kernel kills every process it left behind. Being pid 1, it ignores
//     any signal it has no handler for that comes from inside the
//     namespace (os.kill of its own pid with SIGTERM does nothing), and
//     the soft CPU limit's SIGXCPU: the hard limit's SIGKILL, at the same
//     second, ends it instead. A pid-1 program that re-raises a signal to
//     die by it (CPython after an uncaught KeyboardInterrupt) exits 128+n
//     instead, as bwrap reports a program killed by signal n: in every
//     mode with a PID namespace, exit codes 128+1 to 128+64 are read as
//     signals (Result.Signal), as PythonServer, whose calls are not pid 1,
//     reports them. The program also leads its own process
//     group, and the whole group is killed at every limit; with a uid per
//     run, every process of that uid is killed too, at the wall limit and
//     at the end, so that a child that left the group and the namespaces
//     (a double fork with setsid, without a PID namespace) does not
//     outlive the run either. At the wall limit the program is killed
//     first (by its uid, or by the pid bwrap reports on --info-fd), so
//     that bwrap reaps it and its CPU time is reported; the CPU time of
//     the process tree is also read from /proc just before the kill, for
//     a program whose reaper dies with it.
//     Without a uid of its own and without a PID namespace (a caller that
//     is not root, with no namespace), the program can signal every
//     process of the caller's uid, the caller included, and a child that
//     leaves the group outlives the run: String says so.
//   - Limits: RLIMIT_CPU (whole seconds, rounded up), RLIMIT_AS,
//     RLIMIT_FSIZE, RLIMIT_CORE = 0 and, with a uid per run, RLIMIT_NPROC
//     (Limits.Processes: processes and threads of the run's uid) are set by
//     the prlimit(1) command of util-linux, which then execs the program;
//     without prlimit, CPU and memory by `/bin/sh -c ulimit`; with
//     neither, only the wall-clock and output limits hold (Isolation.Limits
//     says which). The environment sets MALLOC_ARENA_MAX=1: glibc would
//     reserve 64 MiB of address space per thread's arena, so that under
//     RLIMIT_AS 256 MiB held 6 Python threads; a thread now costs its
//     stack (8 MiB by default: about 30 threads in 256 MiB).
//   - Output: at most Limits.OutputBytes of stdout and of stderr are kept;
//     one byte more kills the program (StatusOutputLimit, Truncated set).
//   - Files: the working directory is a fresh temporary directory (HOME,
//     PWD and TMPDIR point to it), removed after the run. Its name holds
//     the pid of the process that made it: a process killed while a
//     program ran leaves it behind, and the first Run of a later process
//     removes it. With a uid per run, whatever that uid left at the top of
//     /dev/shm, /tmp, /var/tmp and the temp dir is removed at the end of
//     the run (PythonServer: when the zygote goes).
//   - Not limited: disk use, in the working directory and, where the file
//     system is not read-only, outside it: RLIMIT_FSIZE caps each file,
//     not their number, so only the CPU and wall limits bound the total
//     (hundreds of MiB in a second of CPU). /dev/shm, which is RAM, is the
//     run's own and capped (a root caller's namespaces), the run's own and
//     uncapped but freed at the end (bwrap as the caller; with a uid per
//     run, bwrap's /dev/shm is root's and refuses the program's writes),
//     emptied of the run uid's files at the end (a uid per run without a
//     mount namespace), or the host's, where the files stay (no uid per
//     run and no mount namespace: the zero Isolation, a caller that is not
//     root without bwrap). Without a uid per run, the number of processes
//     is not limited either (RLIMIT_NPROC would count every process of the
//     caller's user).
//
// # The interpreter
//
// FindPython resolves an interpreter by running it once, outside the
// sandbox, and so first vets it: its name must start with python or
// pypy, and every directory and symbolic link on its way, and the file
// itself, must be owned by root or the caller and writable by no one else
// (a program under /tmp is refused). PythonFor
// picks the interpreter of a run under an isolation: for DefaultPython,
// PATH's python3, or where that isolation cannot run it (a root-only
// pyenv, without bwrap), the first of FallbackPythons it can, logged and
// noted; any other name as given, or the error saying why it cannot run.
//
// # A warm Python interpreter
//
// PythonServer runs Python programs as Run runs `python3 -I main.py`,
// under the same isolation, environment and limits, without paying an
// interpreter's start (with site, most of a run's cost) per program: one
// long-lived interpreter, the zygote, started under the isolation that Run
// applies, forks a child per call. The child gets a session of its own,
// fresh pipes for stdin, stdout and stderr, the call's CPU limit, a fresh
// directory (removed after the call), only the modules `python3 -I`
// imports, and a fresh __main__ whose file is main.py; the zygote enforces
// the wall and output limits, reports the exit status and the child's CPU
// time, and kills whatever the call left running. The Result is Run's,
// classified the same way. The zygote is replaced after Recycle calls (64
// by default), after a call that hit the wall, CPU or output limit, and
// whenever it misbehaves (no answer within the wall limit plus a second,
// an exit, a bad frame); one that died is restarted at the next call. The
// PythonServer doc says what a call can see of the zygote and what it
// can leave to the next call until the zygote is recycled.
//
// Memory-limit detection is a heuristic: the program's allocation fails
// under RLIMIT_AS and it exits with an error; Run reports StatusMemoryLimit
// when the exit is an error and stderr names an allocation failure
// (Python's MemoryError, C's "Cannot allocate memory", C++'s bad_alloc).
package sandbox
