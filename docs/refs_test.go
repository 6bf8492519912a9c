package docs

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// issueRef is a citation of an issue by number ("issue 14"): code, configs,
// scripts and docs say what a thing is instead, since a tracker's numbers
// mean nothing in a copy of the repository.
var issueRef = regexp.MustCompile(`[Ii]ssue #?[0-9]`)

// TestNoIssueNumbers fails when a tracked source, config, script or
// document cites an issue by its number.
func TestNoIssueNumbers(t *testing.T) {
	gitTool, err := exec.LookPath("git")
	if err != nil {
		t.Skip("no git command on PATH to list the tracked files")
	}
	out, err := exec.Command(gitTool, "-C", "..", "ls-files", "-z").Output()
	if err != nil {
		t.Skipf("git ls-files: %v (not a git checkout)", err)
	}
	checked := 0
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
		checked++
		for i, line := range strings.Split(string(data), "\n") {
			if issueRef.MatchString(line) {
				t.Errorf("%s:%d cites an issue by number: say what the thing is instead: %q", name, i+1, strings.TrimSpace(line))
			}
		}
	}
	if checked < 100 {
		t.Fatalf("checked only %d files: the listing is broken", checked)
	}
}
