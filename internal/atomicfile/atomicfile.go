package atomicfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
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
