package atomicfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
)

// Mode is the permission of every file WriteFile writes: readable by all,
// writable by the owner.
const Mode os.FileMode = 0o644

// WriteFile replaces path with data so that a reader, or the file system
// after a crash, sees either the old file or the new one, never a part:
//
//  1. data goes to a new temporary file in path's directory (so that the
//     rename below stays within one file system);
//  2. the file is set to Mode, synced to disk and closed;
//  3. it is renamed over path;
//  4. the directory is synced, so that the rename itself survives a crash.
//
// On any failure the temporary file is removed and path is left as it was.
// A file system that cannot sync a directory (EINVAL or ENOTSUP from the
// sync, or Windows) is not an error: the data is on disk, only the rename's durability
// is up to the file system.
func WriteFile(path string, data []byte) (err error) {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			_ = f.Close()
			_ = os.Remove(tmp)
			err = fmt.Errorf("write %s: %w", path, err)
		}
	}()
	if _, err = f.Write(data); err != nil {
		return err
	}
	if err = f.Chmod(Mode); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	if err = os.Rename(tmp, path); err != nil {
		return err
	}
	return syncDir(dir)
}

// syncDir makes the directory entries of dir durable. Windows has no
// directory sync (and its renames need none).
func syncDir(dir string) error {
	if runtime.GOOS == "windows" {
		return nil
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	if errors.Is(err, syscall.EINVAL) || errors.Is(err, errors.ErrUnsupported) {
		return nil
	}
	return err
}

// RemoveStale removes from dir the temporary files that a WriteFile
// killed between its create and its rename (SIGKILL, a power cut) left
// behind: regular files named "." + NAME + ".tmp-" + digits, the pattern
// of step 1. It returns the names removed. Call it where no WriteFile
// into dir can be running, at the start of the process that owns dir (a
// run directory, say); a missing dir is not an error.
func RemoveStale(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("remove stale temporary files in %s: %w", dir, err)
	}
	var removed []string
	for _, e := range entries {
		if !e.Type().IsRegular() || !isTempName(e.Name()) {
			continue
		}
		if err := os.Remove(filepath.Join(dir, e.Name())); err != nil && !errors.Is(err, os.ErrNotExist) {
			return removed, fmt.Errorf("remove stale temporary file: %w", err)
		}
		removed = append(removed, e.Name())
	}
	return removed, nil
}

// isTempName reports whether name is one of WriteFile's temporary names:
// ".NAME.tmp-" followed by the digits os.CreateTemp puts for its "*".
func isTempName(name string) bool {
	i := strings.LastIndex(name, ".tmp-")
	if !strings.HasPrefix(name, ".") || i < 2 {
		return false
	}
	digits := name[i+len(".tmp-"):]
	if digits == "" {
		return false
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
