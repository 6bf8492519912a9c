// Package docs holds the repository's documentation; its tests keep the
// architecture page's package table and dependency lines in step with the
// code, and keep issue numbers out of the repository's text.
package docs

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestArchitectureListsEveryPackage fails when a directory with Go code
// (outside testdata) has no row in docs/architecture.md's package table.
func TestArchitectureListsEveryPackage(t *testing.T) {
	page, err := os.ReadFile("architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	pkgs := map[string]bool{}
	err = filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() && (name == "testdata" || (strings.HasPrefix(name, ".") && name != "..") || name == "docs" || name == "examples") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") {
			rel, err := filepath.Rel("..", filepath.Dir(path))
			if err != nil {
				return err
			}
			pkgs[filepath.ToSlash(rel)] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) < 30 {
		t.Fatalf("found only %d packages: the walk is broken", len(pkgs))
	}
	for p := range pkgs {
		if !strings.Contains(string(page), "| `"+p+"` |") {
			t.Errorf("docs/architecture.md has no row for package %s: add one to its package table", p)
		}
	}
}
