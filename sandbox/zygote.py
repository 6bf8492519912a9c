# The warm interpreter of sandbox.PythonServer (server.go), embedded in the
# Go package and started as `python3 -I -c <this file> WORKDIR SWEEP` (or
# `python3 -I -S -c <this file> WORKDIR SWEEP -S`) under
# the sandbox's isolation. It reads requests on fd 0 and answers on fd 1,
# in the frames server.go describes; for each request it forks, and the
# child runs the request's code as a fresh `python3 -I main.py` would.
import sys

# What `python3 -I` imported (site included): a call starts with exactly
# these modules, so that what this script imports is not the call's.
_BASE = frozenset(sys.modules)

import gc
import os
import resource
import select
import signal
import time

_WORK = sys.argv[1]
# A kill(-1) after each call reaches only the sandbox's own processes:
# those of its PID namespace (this process is its pid 1) or of its uid.
_SWEEP = os.getpid() == 1 or sys.argv[2] == "1"
# The interpreter flags a call's command line shows beyond -I ("-S" when
# the server runs without the site module).
_FLAGS = sys.argv[3:]
_REQ, _REP = os.dup(0), os.dup(1)
_null = os.open(os.devnull, os.O_RDWR)
os.dup2(_null, 0)
os.dup2(_null, 1)
os.close(_null)
del _null
# Signals from a call's program: as its PID namespace's pid 1, this
# process ignores any signal it has no handler for.
signal.signal(signal.SIGINT, signal.SIG_DFL)

# Not dumpable: a call's program, of the same uid, cannot ptrace this
# process or open its /proc files (and so reach the pipes to the caller).
try:
    import ctypes

    _prctl = ctypes.CDLL(None, use_errno=True).prctl
    _prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE
except Exception:
    _prctl = None


def _depth(n=0):
    try:
        return _depth(n + 1)
    except RecursionError:
        return n


# The frames below a call's main.py (this script's and exec's) count
# against the recursion limit, which a call gets raised by as many: deep
# recursion then fails at the depth, and with the traceback, of a fresh
# interpreter (sys.getrecursionlimit says the raised limit).
_FRAMES = _depth()
exec(compile("_FRAMES -= _depth()", "<probe>", "exec", dont_inherit=True))


def _read(n):
    buf = bytearray()
    while len(buf) < n:
        b = os.read(_REQ, n - len(buf))
        if not b:
            os._exit(0)  # the caller closed the pipe: the server is done
        buf += b
    return bytes(buf)


def _write(fd, data):
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _ints(*values):
    return b"".join(int(v).to_bytes(8, "big", signed=True) for v in values)


def _remove(path):
    """Removes path, a tree a call's program may have made unwritable."""
    if os.path.isdir(path) and not os.path.islink(path):
        os.chmod(path, 0o700)
        for name in os.listdir(path):
            _remove(os.path.join(path, name))
        os.rmdir(path)
    else:
        os.unlink(path)


def _child(d, code, cpu, pipes):
    """Turns the forked child into a fresh interpreter about to run code."""
    (ri, wi), (ro, wo), (re, we) = pipes
    os.setsid()
    os.close(_REQ)
    os.close(_REP)
    os.dup2(ri, 0)
    os.dup2(wo, 1)
    os.dup2(we, 2)
    for fd in (ri, wi, ro, wo, re, we):
        os.close(fd)
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu))
    os.chdir(d)
    os.environ["HOME"] = os.environ["PWD"] = os.environ["TMPDIR"] = d
    signal.signal(signal.SIGINT, signal.default_int_handler)
    sys.setrecursionlimit(sys.getrecursionlimit() + _FRAMES)
    if _prctl is not None:
        _prctl(4, 1, 0, 0, 0)
    path = os.path.join(d, "main.py")
    sys.argv = ["main.py"]
    if hasattr(sys, "orig_argv"):
        sys.orig_argv = sys.orig_argv[:1] + ["-I"] + _FLAGS + ["main.py"]
    main = type(sys)("__main__")
    main.__annotations__ = {}
    main.__builtins__ = sys.modules["builtins"]
    main.__file__ = path
    main.__cached__ = None
    main.__loader__ = sys.modules["_frozen_importlib_external"].SourceFileLoader("__main__", path)
    sys.modules["__main__"] = main
    for name in [m for m in sys.modules if m not in _BASE]:
        del sys.modules[name]
    return main, path, code


def _others(pid):
    """Reports whether a process killed after the call still exists."""
    if os.getpid() == 1:
        # Every process left in the namespace is a child of this one, as
        # each orphan is: reap them until none is left.
        try:
            while os.waitpid(-1, os.WNOHANG)[0] > 0:
                pass
            return True
        except ChildProcessError:
            return False
    try:
        os.killpg(pid, 0)
        return True
    except OSError:
        pass
    if not _SWEEP:
        return False
    me, uid = str(os.getpid()), os.getuid()
    for p in os.listdir("/proc"):
        try:
            if p.isdigit() and p != me and os.stat("/proc/" + p).st_uid == uid:
                return True
        except OSError:
            pass
    return False


def _settle(pid):
    """Waits (1 s at most) until the processes killed are gone."""
    deadline = time.monotonic() + 1
    while _others(pid) and time.monotonic() < deadline:
        time.sleep(0.001)


def _wait(pid, start, wall, limit, stdin, pipes):
    """Feeds and watches the child until it ends or a limit stops it."""
    (ri, wi), (ro, wo), (re, we) = pipes
    for fd in (ri, wo, we):
        os.close(fd)
    out = {ro: bytearray(), re: bytearray()}
    poll = select.poll()
    for fd in out:
        poll.register(fd, select.POLLIN)
    pending = memoryview(stdin)
    if pending:
        os.set_blocking(wi, False)
        poll.register(wi, select.POLLOUT)
    else:
        os.close(wi)
        wi = -1
    try:
        pidfd = os.pidfd_open(pid)
        poll.register(pidfd, select.POLLIN)
    except (AttributeError, OSError):
        pidfd = -1  # no pidfd (Python < 3.9, Linux < 5.3): wait4 every 5 ms
    deadline = start + wall / 1e9
    timeout = overflow = exited = False
    while not (exited or overflow):
        left = deadline - time.monotonic()
        if left <= 0:
            timeout = True
            break
        ms = int(left * 1000) + 1
        for fd, _ in poll.poll(ms if pidfd >= 0 else min(ms, 5)):
            if fd == pidfd:
                exited = True
            elif fd == wi:
                try:
                    pending = pending[os.write(wi, pending[:65536]):]
                except BlockingIOError:
                    continue
                except OSError:
                    pending = pending[:0]  # the program closed its stdin
                if not pending:
                    poll.unregister(wi)
                    os.close(wi)
                    wi = -1
            else:
                data = os.read(fd, 65536)
                if not data:
                    poll.unregister(fd)
                out[fd] += data
                overflow = overflow or len(out[fd]) > limit
        if pidfd < 0 and not exited:
            exited = os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    took = time.monotonic() - start
    # The call's processes go now, whatever they are doing: its process
    # group and, with _SWEEP, every other process of the sandbox.
    try:
        os.killpg(pid, signal.SIGKILL)
    except OSError:
        pass
    if _SWEEP:
        try:
            os.kill(-1, signal.SIGKILL)
        except OSError:
            pass
    _, status, usage = os.wait4(pid, 0)
    _settle(pid)
    for fd, buf in out.items():
        os.set_blocking(fd, False)
        while len(buf) <= limit:
            try:
                data = os.read(fd, 65536)
            except BlockingIOError:
                break
            if not data:
                break
            buf += data
        overflow = overflow or len(buf) > limit
        del buf[limit:]
        os.close(fd)
    for fd in (wi, pidfd):
        if fd >= 0:
            os.close(fd)
    cpu = int((usage.ru_utime + usage.ru_stime) * 1e9)
    flags = (1 if timeout else 0) | (2 if overflow else 0)
    return status, cpu, int(took * 1e9), flags, out[ro], out[re]


def _serve():
    """Answers requests until the caller closes the pipe; returns in a
    forked child only, with what that child is to run."""
    _write(_REP, b"R" + _ints(os.getpid()))
    n = 0
    while True:
        head = _read(48)
        cpu, wall, limit, ncode, nstdin, _ = (int.from_bytes(head[i : i + 8], "big", signed=True) for i in range(0, 48, 8))
        code = _read(ncode)
        stdin = _read(nstdin)
        _write(_REP, b"A")
        n += 1
        d = os.path.join(_WORK, "run-%d" % n)
        try:
            os.mkdir(d, 0o700)
            fd = os.open(os.path.join(d, "main.py"), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            _write(fd, code)
            os.close(fd)
            pipes = os.pipe(), os.pipe(), os.pipe()
            start = time.monotonic()
            pid = os.fork()
        except Exception as e:
            msg = ("%s: %s" % (type(e).__name__, e)).encode()
            _write(_REP, b"E" + _ints(len(msg)) + msg)
            os._exit(2)
        if pid == 0:
            try:
                return _child(d, code, cpu, pipes)
            except BaseException as e:
                os.write(2, ("sandbox: python server: call setup: %s: %s\n" % (type(e).__name__, e)).encode())
                os._exit(127)
        status, cpu, took, flags, out, err = _wait(pid, start, wall, limit, stdin, pipes)
        db = d.encode()
        _write(_REP, b"D" + _ints(status, cpu, took, flags, len(db), len(out), len(err)) + db + out + err)
        try:
            for name in os.listdir(_WORK):
                _remove(os.path.join(_WORK, name))
        except BaseException:
            os._exit(3)  # the caller restarts the server at the next call


def _flush(status, sys=sys, Exception=Exception):
    for f in (sys.stdout, sys.stderr):
        try:
            if f is not None and not f.closed:
                f.flush()
        except Exception:
            if f is sys.stdout:
                status = 120  # as python3 exits when stdout cannot be flushed
    return status


def _exit_status(e, isinstance=isinstance, int=int, print=print, sys=sys, Exception=Exception):
    """The exit status of SystemExit e, as python3 computes it."""
    if e.code is None:
        return 0
    if isinstance(e.code, int):
        return e.code & 0xFF
    try:
        print(e.code, file=sys.stderr)
    except Exception:
        pass
    return 1


def _finish(main, status, interrupted, sys=sys, list=list, hasattr=hasattr, collect=gc.collect, flush=_flush,
            setsig=signal.signal, kill=os.kill, getpid=os.getpid, exit=os._exit, __import__=__import__):
    """Ends the child as python3 ends: it waits for the threads, runs the
    atexit functions, flushes stdout and stderr, clears __main__ (whose
    objects' __del__ may still print), and exits. The rest of the
    interpreter's teardown would only copy the zygote's pages. What it
    uses is bound here, out of reach of a call that patches builtins."""
    threading = sys.modules.get("threading")
    if threading is not None and hasattr(threading, "_shutdown"):
        threading._shutdown()
    __import__("atexit")._run_exitfuncs()
    status = flush(status)
    collect()
    d = main.__dict__
    for k in list(d):
        if k.startswith("_") and not k.startswith("__"):
            d[k] = None
    for k in list(d):
        if k != "__builtins__":
            d[k] = None
    collect()
    status = flush(status)
    if interrupted:
        setsig(signal.SIGINT, signal.SIG_DFL)
        kill(getpid(), signal.SIGINT)
    exit(status)


# The zygote's objects stay out of every collection of a child's: a
# collection would otherwise write to (and so copy) every page of them.
gc.freeze()
_KeyboardInterrupt, _SystemExit, _BaseException = KeyboardInterrupt, SystemExit, BaseException
_main, _path, _code = _serve()
# Only a forked child gets here, and runs the call's code as main.py; an
# uncaught exception is reported as python3 main.py reports it, without
# this script's frame.
_status = 0
_interrupted = False
try:
    exec(compile(_code, _path, "exec", dont_inherit=True), _main.__dict__)
except _SystemExit as _e:
    _status = _exit_status(_e)
except _BaseException as _e:
    _e.__traceback__ = _e.__traceback__.tb_next
    sys.last_type, sys.last_value, sys.last_traceback = _e.__class__, _e, _e.__traceback__
    try:
        sys.excepthook(_e.__class__, _e, _e.__traceback__)
    except _BaseException:
        sys.__excepthook__(_e.__class__, _e, _e.__traceback__)
    _status, _interrupted = 1, _KeyboardInterrupt in _e.__class__.__mro__
_finish(_main, _status, _interrupted)
