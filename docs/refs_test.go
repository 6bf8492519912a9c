package docs

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// issueRef is a citation of an issue by its number (the word, a space, a
// digit): code, configs, scripts and docs say what a thing is instead,
// since a tracker's numbers mean nothing in a copy of the repository.
var issueRef = regexp.MustCompile(`[Ii]ssue #?[0-9]`)

// measuredTime is a measured duration in a comment ("some 90 ms", "90 ms
// or more"): it holds on one machine on one day, so it belongs in
// docs/results.md or a benchmark, not in code. Defaults and limits ("0
// means 60 s") are settings and do not match.
var measuredTime = regexp.MustCompile(`((some|about|around|roughly|nearly|~) ?[0-9][0-9.,]* ?(ns|µs|us|ms|s|seconds|minutes)\b)|` +
	`([0-9][0-9.,]* ?(ns|µs|us|ms|s|seconds|minutes) or (more|less))`)

// TestNoMeasuredTimesInComments fails when a comment of the Go code
// (tests aside) states a measured duration.
func TestNoMeasuredTimesInComments(t *testing.T) {
	for _, bad := range []string{"// (some 90 ms each)", "// instead of a start (90 ms or more)", "// about 1.5 s a call"} {
		if !measuredTime.MatchString(bad) {
			t.Fatalf("the pattern misses %q", bad)
		}
	}
	for _, ok := range []string{"// per attempt; 0 means 60 s", "// Default 10 minutes.", "// python 5s, search 5s"} {
		if measuredTime.MatchString(ok) {
			t.Fatalf("the pattern takes a setting for a measurement: %q", ok)
		}
	}
	for name, data := range trackedFiles(t) {
		if filepath.Ext(name) != ".go" || strings.HasSuffix(name, "_test.go") {
			continue
		}
		for i, line := range strings.Split(string(data), "\n") {
			if c := strings.TrimSpace(line); strings.HasPrefix(c, "//") && measuredTime.MatchString(c) {
				t.Errorf("%s:%d states a measured time in a comment: move the figure to docs/results.md or a benchmark: %q", name, i+1, c)
			}
		}
	}
}

// TestNoIssueNumbers fails when a tracked source, config, script or
// document cites an issue by its number.
func TestNoIssueNumbers(t *testing.T) {
	for name, data := range trackedFiles(t) {
		for i, line := range strings.Split(string(data), "\n") {
			if issueRef.MatchString(line) {
				t.Errorf("%s:%d cites an issue by number: say what the thing is instead: %q", name, i+1, strings.TrimSpace(line))
			}
		}
	}
}

// trackedFiles reads the text files git tracks in the repository (those
// of a source or documentation extension), by path; it skips the test
// outside a git checkout.
func trackedFiles(t *testing.T) map[string][]byte {
	t.Helper()
	gitTool, err := exec.LookPath("git")
	if err != nil {
		t.Skip("no git command on PATH to list the tracked files")
	}
	out, err := exec.Command(gitTool, "-C", "..", "ls-files", "-z").Output()
	if err != nil {
		t.Skipf("git ls-files: %v (not a git checkout)", err)
	}
	files := map[string][]byte{}
	for name := range strings.SplitSeq(strings.TrimRight(string(out), "\x00"), "\x00") {
		switch filepath.Ext(name) {
		case ".go", ".md", ".yaml", ".yml", ".sh", ".py", ".txt":
		default:
			continue
		}
		data, err := os.ReadFile(filepath.Join("..", name))
		if err != nil {
			continue // listed but deleted in the work tree
		}
		files[name] = data
	}
	if len(files) < 100 {
		t.Fatalf("read only %d tracked files: the listing is broken", len(files))
	}
	return files
}
