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
// isolation is in force; Isolation.String is meant for logs and Info maps.
//
//   - Network and files, with bubblewrap: where bwrap(1) is installed and
//     works, the program runs under it with new network, PID, IPC and UTS
//     namespaces (the network namespace has only its own loopback: a
//     connection to the host's 127.0.0.1 is refused), every capability
//     dropped, the whole file system mounted read-only but for the working
//     directory, and fresh /dev and /proc (Isolation.ReadOnlyFS). bwrap
//     reports a program killed by signal n as exit code 128+n: in this mode
//     such codes are read as signals.
//   - Network without bubblewrap: the program is started in a new network
//     namespace (Linux clone flag CLONE_NEWNET, the kernel mechanism behind
//     `unshare -n`), whose only interface is a loopback that is down: every
//     connect, even to 127.0.0.1, fails. As root this needs nothing else; as
//     another user it needs unprivileged user namespaces (CLONE_NEWUSER, the
//     user mapped to itself). The file system is then NOT isolated: the
//     program runs as the calling user and may read and write whatever that
//     user may, by absolute path. Where no namespace works the network is
//     NOT isolated either, and Isolation.Network says "none". Spec.Network =
//     true turns the network isolation off for one run.
//   - Processes: a new PID namespace comes with the network namespace (in
//     both modes; bwrap runs with --as-pid-1): the program is its pid 1, sees only its own children
//     through kill(2), and when it dies the kernel kills every process it
//     left behind. Being pid 1, it ignores any signal it has no handler
//     for that comes from inside the namespace (os.kill of its own pid
//     with SIGTERM does nothing), and the soft CPU limit's SIGXCPU: the
//     hard limit's SIGKILL, at the same second, ends it instead. The
//     program also leads its own process group, and the
//     whole group is killed at every limit, so that with or without the
//     namespace no child outlives the run by design.
//   - Limits: RLIMIT_CPU (whole seconds, rounded up), RLIMIT_AS,
//     RLIMIT_FSIZE and RLIMIT_CORE = 0 are set by the prlimit(1) command of
//     util-linux, which then execs the program; without prlimit, by
//     `/bin/sh -c ulimit`; with neither, only the wall-clock and output
//     limits hold (Isolation.Limits says which).
//   - Output: at most Limits.OutputBytes of stdout and of stderr are kept;
//     one byte more kills the program (StatusOutputLimit, Truncated set).
//   - Files: the working directory is a fresh temporary directory (HOME,
//     PWD and TMPDIR point to it), removed after the run.
//   - Not limited: the number of processes or threads (RLIMIT_NPROC counts
//     every process of the user, root is exempt; a cgroup would be needed),
//     and disk use outside the working directory.
//
// Memory-limit detection is a heuristic: the program's allocation fails
// under RLIMIT_AS and it exits with an error; Run reports StatusMemoryLimit
// when the exit is an error and stderr names an allocation failure
// (Python's MemoryError, C's "Cannot allocate memory", C++'s bad_alloc).
package sandbox
