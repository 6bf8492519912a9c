package task

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// Items is a read-only list of dataset items, shared by every env made
// from one file: its slice is unexported and At hands out copies (through
// the clone function for items that hold slices), so no env can change
// what another env reads.
type Items[T any] struct {
	items []T
	clone func(T) T
}

// NewItems returns a read-only list of a copy of items. clone, when not
// nil, copies an item deeply (an item with a slice field needs one); nil
// means the item is copied by value.
func NewItems[T any](items []T, clone func(T) T) *Items[T] {
	return &Items[T]{items: append([]T(nil), items...), clone: clone}
}

// Len returns the number of items.
func (s *Items[T]) Len() int { return len(s.items) }

// At returns a copy of item i (0 ≤ i < Len()).
func (s *Items[T]) At(i int) T {
	if s.clone != nil {
		return s.clone(s.items[i])
	}
	return s.items[i]
}

// fileKey names one way of reading one file: its absolute path and the
// reader's spec (the family and field names, since two envs may read
// different fields of the same file).
type fileKey struct{ path, spec string }

type fileEntry struct {
	size  int64
	mtime time.Time
	items any // *Items[T] of the loader's T
}

// sharedFiles is the process-wide cache of LoadShared: one entry per file
// and spec, replaced when the file's size or modification time changes, so
// it holds at most one parsed copy of each file.
var sharedFiles = struct {
	sync.Mutex
	m map[fileKey]fileEntry
}{m: map[fileKey]fileEntry{}}

// LoadShared returns the items of the JSONL file at path, parsed by parse
// (named with the path in errors) once per process: every later call with
// the same absolute path and spec, while the file keeps its size and
// modification time, returns the same read-only list. A changed file is
// parsed again. An error is not cached. spec must name everything parse
// depends on besides the file (say "math question=question answer=answer").
func LoadShared[T any](path, spec string, parse func(recs []Record, name string) ([]T, error), clone func(T) T) (*Items[T], error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("dataset %s: %w", path, err)
	}
	before, err := os.Stat(abs)
	if err != nil {
		return nil, fmt.Errorf("open dataset: %w", err)
	}
	key := fileKey{abs, spec}
	sharedFiles.Lock()
	defer sharedFiles.Unlock() // one parse at a time: parallel Makes of one file wait for its first parse
	if e, ok := sharedFiles.m[key]; ok && e.size == before.Size() && e.mtime.Equal(before.ModTime()) {
		if items, ok := e.items.(*Items[T]); ok {
			return items, nil
		}
	}
	recs, err := ReadJSONLFile(path)
	if err != nil {
		return nil, err
	}
	list, err := parse(recs, path)
	if err != nil {
		return nil, err
	}
	items := &Items[T]{items: list, clone: clone}
	// Cache only what was read from an unchanged file: a write during the
	// read changes the size or the time, and the next call reads again.
	if after, err := os.Stat(abs); err == nil && after.Size() == before.Size() && after.ModTime().Equal(before.ModTime()) {
		sharedFiles.m[key] = fileEntry{size: before.Size(), mtime: before.ModTime(), items: items}
	} else {
		delete(sharedFiles.m, key)
	}
	return items, nil
}
