// Package depstest checks in tests what a package links: the import
// graph that `go list -deps` prints, so that a layering rule (the server
// links no trainer, eval no game package) fails a test when an import
// breaks it.
package depstest

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// Module is the module path the packages below are named in.
const Module = "github.com/gemgo/gemgo/"

// Deps returns the packages pkg depends on, itself included (`go list
// -deps pkg`, run in the test's directory: "." is the package under
// test). It skips the test when the go command is not on PATH.
func Deps(t testing.TB, pkg string) []string {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go is not on PATH: the dependency list needs the go command")
	}
	out, err := exec.Command(goBin, "list", "-deps", pkg).CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps %s: %v\n%s", pkg, err, out)
	}
	return strings.Fields(string(out))
}

// Absent fails t for each package of deps that is one of banned or lies
// under one (a banned "a/b" covers "a/b/c"; a banned prefix ending in "/"
// covers every path that starts with it). why says why, in the message.
func Absent(t testing.TB, deps []string, why string, banned ...string) {
	t.Helper()
	for _, d := range deps {
		for _, b := range banned {
			if d == b || strings.HasPrefix(d, strings.TrimSuffix(b, "/")+"/") {
				t.Errorf("links %s (banned: %s): %s", d, b, why)
			}
		}
	}
}

// Present fails t unless deps holds every package of want: a guard that
// the list is the real one.
func Present(t testing.TB, deps []string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !slices.Contains(deps, w) {
			t.Errorf("go list -deps gave %d packages without %s", len(deps), w)
		}
	}
}
