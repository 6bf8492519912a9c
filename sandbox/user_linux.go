//go:build linux

package sandbox

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// The uids a root caller runs programs as: one per run, taken from
// [uidBase, uidBase+uidCount), which no passwd entry names and no
// subordinate-uid range of the common distributions reaches (theirs start
// at 100000 and span 65536 per user). One uid per run means a program
// cannot signal or trace another run's program, that RLIMIT_NPROC (counted
// per uid) caps exactly this run's processes, and that every process the
// run left behind, even outside its process group and namespaces, is
// found by its uid and killed at the end.
const (
	uidBase  = 2_000_000_000
	uidCount = 1 << 14
)

// runUser is the uid of one run, held (by an flock on its lock file)
// until release.
type runUser struct {
	uid  int
	lock *os.File
}

// acquireUser takes a free uid: one whose lock file no live process holds
// locked. The lock files live in a root-only directory of the system temp
// dir; a crashed process's locks are released by the kernel.
func acquireUser() (*runUser, error) {
	dir := filepath.Join(os.TempDir(), "gemgo-sandbox-uids")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("sandbox: uid lock directory: %w", err)
	}
	start := (os.Getpid() * 131) % uidCount
	for i := range uidCount {
		uid := uidBase + (start+i)%uidCount
		f, err := os.OpenFile(filepath.Join(dir, strconv.Itoa(uid)), os.O_RDWR|os.O_CREATE, 0o600)
		if err != nil {
			return nil, fmt.Errorf("sandbox: uid lock: %w", err)
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			f.Close()
			continue
		}
		return &runUser{uid: uid, lock: f}, nil
	}
	return nil, fmt.Errorf("sandbox: all %d sandbox uids are in use", uidCount)
}

// release kills whatever still runs as the uid, removes the files it
// left in the shared directories (removeFilesOf), then frees it.
func (u *runUser) release(sh string) {
	killUser(sh, u.uid)
	removeFilesOf(u.uid, sharedDirs()...)
	u.lock.Close()
}

// sharedDirs are the world-writable directories a run may leave files in:
// /dev/shm, /tmp, /var/tmp and the caller's temp dir.
func sharedDirs() []string {
	dirs := []string{"/dev/shm", "/tmp", "/var/tmp"}
	if t := filepath.Clean(os.TempDir()); !slices.Contains(dirs, t) {
		dirs = append(dirs, t)
	}
	return dirs
}

// removeFilesOf removes every entry at the top of each of dirs that uid
// owns, with all it holds (symbolic links are removed, not followed). A
// run without a mount namespace of its own (or whose /tmp is the host's)
// may write these world-writable directories: /dev/shm is RAM, and the
// next run of the same uid would find the files. Call it once no process
// of uid is left.
func removeFilesOf(uid int, dirs ...string) {
	for _, d := range dirs {
		ents, err := os.ReadDir(d)
		if err != nil {
			continue
		}
		for _, e := range ents {
			fi, err := e.Info()
			if err != nil {
				continue
			}
			if owner, _, ok := ownerOf(fi); ok && owner == uid {
				_ = os.RemoveAll(filepath.Join(d, e.Name()))
			}
		}
	}
}

// killUser sends SIGKILL to every process of uid: a shell started as uid
// runs kill -9 -1, which reaches every process the caller may signal (the
// processes of its own uid, in any namespace below the caller's) but
// itself.
// It starts the shell only while /proc shows a process of uid (by its real
// uid, which the process cannot hide), which after most runs it does not.
func killUser(sh string, uid int) {
	for range 3 {
		if !userHasProcesses(uid) {
			return
		}
		cmd := exec.Command(sh, "-c", "kill -9 -1 2>/dev/null; true")
		cmd.Env = []string{"PATH=/usr/bin:/bin"}
		cmd.Dir = "/"
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(uid), Groups: []uint32{}}}
		_ = cmd.Run()
		time.Sleep(5 * time.Millisecond)
	}
}

// userHasProcesses reports whether a process of uid is visible in /proc.
func userHasProcesses(uid int) bool {
	want := strconv.Itoa(uid)
	found := false
	eachProc("status", func(_ int, data string) bool {
		// "Uid:\treal\teffective\tsaved\tfs"
		if _, rest, ok := strings.Cut(data, "\nUid:\t"); ok {
			if real, _, _ := strings.Cut(rest, "\t"); real == want {
				found = true
			}
		}
		return found
	})
	return found
}

// chownTree gives dir and everything in it to uid, but a file with more
// than one hard link: a run that kept its directory (Spec.Dir) could have
// linked a file it does not own there, where fs.protected_hardlinks is off.
func chownTree(dir string, uid int) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil && hardLinked(fi) {
				return nil
			}
		}
		return os.Lchown(p, uid, uid)
	})
}

// blockedDirs returns the directories on the way to path (path's
// ancestors, and path itself when it is a directory) that a user who is
// neither owner nor in the group cannot search, outermost first.
func blockedDirs(path string) []string {
	var out []string
	p := "/"
	for _, part := range strings.Split(strings.Trim(filepath.Clean(path), "/"), "/") {
		if fi, err := os.Stat(p); err == nil && fi.IsDir() && fi.Mode().Perm()&0o001 == 0 {
			out = append(out, p)
		}
		p = filepath.Join(p, part)
	}
	if fi, err := os.Stat(p); err == nil && fi.IsDir() && fi.Mode().Perm()&0o001 == 0 {
		out = append(out, p)
	}
	return out
}

// othersMayRun reports whether a user who is neither owner nor in the
// group may execute the file at path (and search every directory on the
// way to it).
func othersMayRun(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().Perm()&0o001 != 0 && len(blockedDirs(filepath.Dir(path))) == 0
}

// errUnreachable explains a program the sandbox's uid cannot run.
func errUnreachable(prog string, iso Isolation) error {
	return fmt.Errorf("sandbox: %s cannot be run by the sandbox's unprivileged user (it is not executable by others, or %s is not searchable by them) under isolation %q, which cannot mount it in: "+
		"use a program every user may run (for Python, /usr/bin/python3; apt-get install python3), or bwrap isolation (apt-get install bubblewrap), which mounts it in read-only",
		prog, strings.Join(blockedDirs(filepath.Dir(prog)), ", "), iso.Network)
}
