package sandbox

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// DefaultPython is the interpreter name the code envs and the Python tool
// use unless configured otherwise. PythonFor reads it as "a Python 3 the
// sandbox can run": PATH's python3, else one of FallbackPythons.
const DefaultPython = "python3"

// FallbackPythons are the interpreters PythonFor tries, in order, when
// PATH's python3 is one the sandbox cannot run (a root-only pyenv, say):
// where distributions install a Python 3 that every user may run.
func FallbackPythons() []string { return []string{"/usr/bin/python3", "/usr/local/bin/python3"} }

const pythonHint = "install Python 3 (Debian/Ubuntu: apt-get install python3) or set the interpreter path"

var pythons sync.Map // pythonKey → pythonResult, FindPython's cache

// pythonKey names one file: its path and identity, so that a file
// replaced or changed is checked again.
type pythonKey struct {
	found string // the path as found: sys.executable follows it
	path  string
	id    fileID
	mtime time.Time
	size  int64
}

type pythonResult struct {
	path string
	err  error
}

// FindPython resolves a Python 3 interpreter: name is a command on PATH
// ("python3") or a path. It runs the interpreter once, as the caller and
// outside any sandbox, to check that it is Python 3, and returns the real
// executable (sys.executable), so that a launcher such as a pyenv shim,
// which needs the caller's environment, is not run under the sandbox's
// minimal one.
//
// Before running it, FindPython vets it. Its file name (before links are
// followed) must start with python or pypy, so that no other program is
// run with Python's arguments. Then (trustedPath) every directory and
// symbolic link on the way to the file, and the file itself, must be
// owned by root or the caller and writable by no one else (the sticky
// /tmp included: a program under /tmp is refused), and the file must be a
// regular file. A program that anyone else could have written or swapped
// is refused, with the reason, and never run. sys.executable is vetted the
// same way. Answers are cached per file (its path and identity).
func FindPython(name string) (string, error) {
	if name == "" {
		return "", errors.New("sandbox: empty python interpreter name: " + pythonHint)
	}
	found, err := exec.LookPath(name)
	if err != nil {
		return "", fmt.Errorf("sandbox: python interpreter %q not found: %s", name, pythonHint)
	}
	if found, err = filepath.Abs(found); err != nil {
		return "", fmt.Errorf("sandbox: python interpreter %q: %w", name, err)
	}
	if base := filepath.Base(found); !strings.HasPrefix(base, "python") && !strings.HasPrefix(base, "pypy") {
		return "", fmt.Errorf("sandbox: python interpreter %q is not run, not even to check its version: its file name %q does not start with python or pypy; "+
			"name a Python 3 interpreter, such as /usr/bin/python3 (apt-get install python3)", name, base)
	}
	real, fi, err := trustedPath(found)
	if err != nil {
		return "", fmt.Errorf("sandbox: python interpreter %q is not run, not even to check its version: %w; "+
			"use an interpreter that only root (or you) can change, such as /usr/bin/python3 (apt-get install python3)", name, err)
	}
	key := pythonKey{found: found, path: real, id: idOf(fi), mtime: fi.ModTime(), size: fi.Size()}
	if v, ok := pythons.Load(key); ok {
		r := v.(pythonResult)
		return r.path, r.err
	}
	path, err := askPython(name, found)
	pythons.Store(key, pythonResult{path, err})
	return path, err
}

// askPython runs the vetted interpreter at path (found for name) and
// returns its sys.executable, vetted too.
func askPython(name, path string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, path, "-I", "-S", "-c",
		"import sys; print(sys.version_info[0]); print(sys.executable)").Output()
	if err != nil {
		return "", fmt.Errorf("sandbox: python interpreter %q does not run (%v): %s", name, err, pythonHint)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 2 || strings.TrimSpace(lines[0]) != "3" {
		return "", fmt.Errorf("sandbox: %q is not Python 3 (it printed %q): %s", name, out, pythonHint)
	}
	exe := strings.TrimSpace(lines[1])
	if !filepath.IsAbs(exe) {
		return "", fmt.Errorf("sandbox: %q does not report its executable (it printed %q): %s", name, exe, pythonHint)
	}
	if _, _, err := trustedPath(exe); err != nil {
		return "", fmt.Errorf("sandbox: python interpreter %q runs %s, which is not trusted: %w; "+
			"use an interpreter that only root (or you) can change, such as /usr/bin/python3 (apt-get install python3)", name, exe, err)
	}
	return exe, nil
}

// PythonFor returns the interpreter that runs under iso for the
// configured name, and, when it is not the one name itself gives, a note
// saying which it chose and why.
//
// DefaultPython means PATH's python3, unless iso cannot run it (its uid
// per run cannot reach an interpreter under a root-only home, and only
// bwrap mounts it in): then the first of FallbackPythons that iso can run,
// noted and logged once per process. Any other name is kept as given:
// the error says why iso cannot run it. With nothing runnable, the error
// names the install line.
func PythonFor(name string, iso Isolation) (path, note string, err error) {
	return pythonFor(name, iso, FallbackPythons())
}

// pythonFor is PythonFor with the fallbacks given.
func pythonFor(name string, iso Isolation, fallbacks []string) (path, note string, err error) {
	exe, err := FindPython(name)
	if err == nil {
		err = iso.CanRun(exe)
	}
	if err == nil || name != DefaultPython {
		if err != nil {
			return "", "", err
		}
		return exe, "", nil
	}
	for _, alt := range fallbacks {
		p, aerr := FindPython(alt)
		if aerr != nil || iso.CanRun(p) != nil {
			continue
		}
		was := "python3 is not on PATH"
		if exe != "" {
			was = fmt.Sprintf("PATH's python3 (%s) cannot be run by the sandbox under isolation %q", exe, iso.Network)
		}
		note = fmt.Sprintf("python: %s (%s)", p, was)
		if _, logged := fallbackLogged.LoadOrStore(note, true); !logged {
			log.Printf("sandbox: %s", note)
		}
		return p, note, nil
	}
	return "", "", fmt.Errorf("%w (nor can it run %s: apt-get install python3)", err, strings.Join(fallbacks, " or "))
}

var fallbackLogged sync.Map // note → true: PythonFor logs each fallback once

// trustedPath follows path (absolute) as the kernel would, and checks
// every step: each directory it enters and the file it ends at must be
// owned by root or the caller (this process's effective uid) and not
// writable by others, nor by a group other than root's or the caller's;
// no sticky-bit exemption (/tmp and /dev/shm are refused). A symbolic link
// is followed from its (checked) directory. The file must be a regular
// file. It returns the resolved path and the file's info.
func trustedPath(path string) (string, os.FileInfo, error) {
	if !filepath.IsAbs(path) {
		return "", nil, fmt.Errorf("%s is not an absolute path", path)
	}
	todo := splitPath(path)
	cur := "/"
	if err := trustedStep(cur, true); err != nil {
		return "", nil, err
	}
	for hops := 0; len(todo) > 0; {
		next := filepath.Join(cur, todo[0])
		todo = todo[1:]
		fi, err := os.Lstat(next)
		if err != nil {
			return "", nil, err
		}
		if fi.Mode()&os.ModeSymlink != 0 {
			if hops++; hops > 40 {
				return "", nil, fmt.Errorf("%s: too many symbolic links", path)
			}
			target, err := os.Readlink(next)
			if err != nil {
				return "", nil, err
			}
			if filepath.IsAbs(target) {
				cur = "/"
			}
			todo = append(splitPath(target), todo...)
			continue
		}
		if err := trustedStep(next, len(todo) > 0); err != nil {
			return "", nil, err
		}
		cur = next
		if len(todo) == 0 {
			return cur, fi, nil
		}
	}
	return "", nil, fmt.Errorf("%s is a directory, not a program", path)
}

// splitPath returns the names of path's components.
func splitPath(path string) []string {
	var out []string
	for _, s := range strings.Split(path, "/") {
		if s != "" && s != "." {
			out = append(out, s)
		}
	}
	return out
}

// trustedStep checks one step of trustedPath: p is a directory (dir) or
// the regular file at the end.
func trustedStep(p string, dir bool) error {
	fi, err := os.Lstat(p)
	if err != nil {
		return err
	}
	kind := "file"
	switch {
	case dir && !fi.IsDir():
		return fmt.Errorf("%s is not a directory", p)
	case dir:
		kind = "directory"
	case fi.IsDir():
		return fmt.Errorf("%s is a directory, not a program", p)
	case !fi.Mode().IsRegular():
		return fmt.Errorf("%s is not a regular file (%s)", p, fi.Mode().Type())
	}
	uid, gid, ok := ownerOf(fi)
	if !ok {
		return fmt.Errorf("%s: cannot read its owner on this system", p)
	}
	me := os.Geteuid()
	perm := fi.Mode().Perm()
	switch {
	case uid != 0 && uid != me:
		return fmt.Errorf("%s %s is owned by uid %d, neither root nor this process's uid %d", kind, p, uid, me)
	case perm&0o002 != 0:
		return fmt.Errorf("%s %s is writable by every user (mode %s)", kind, p, fi.Mode())
	case perm&0o020 != 0 && gid != 0 && gid != os.Getegid():
		return fmt.Errorf("%s %s is writable by group %d (mode %s)", kind, p, gid, fi.Mode())
	}
	return nil
}
