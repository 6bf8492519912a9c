package sandbox

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"time"
)

var pythons sync.Map // name → pythonResult, FindPython's cache

type pythonResult struct {
	path string
	err  error
}

// FindPython resolves a Python 3 interpreter: name is a command on PATH
// ("python3") or a path. It runs the interpreter once to check it is Python
// 3 and returns the real executable (sys.executable), so that a launcher
// such as a pyenv shim, which needs the caller's environment, is not run
// under the sandbox's minimal one. Answers are cached per name.
func FindPython(name string) (string, error) {
	if v, ok := pythons.Load(name); ok {
		r := v.(pythonResult)
		return r.path, r.err
	}
	path, err := findPython(name)
	pythons.Store(name, pythonResult{path, err})
	return path, err
}

func findPython(name string) (string, error) {
	hint := "install Python 3 (Debian/Ubuntu: apt-get install python3) or set the interpreter path"
	if name == "" {
		return "", errors.New("sandbox: empty python interpreter name: " + hint)
	}
	if _, err := exec.LookPath(name); err != nil {
		return "", fmt.Errorf("sandbox: python interpreter %q not found: %s", name, hint)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, name, "-I", "-S", "-c",
		"import sys; print(sys.version_info[0]); print(sys.executable)").Output()
	if err != nil {
		return "", fmt.Errorf("sandbox: python interpreter %q does not run (%v): %s", name, err, hint)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 2 || strings.TrimSpace(lines[0]) != "3" {
		return "", fmt.Errorf("sandbox: %q is not Python 3 (it printed %q): %s", name, out, hint)
	}
	exe := strings.TrimSpace(lines[1])
	if exe == "" {
		return "", fmt.Errorf("sandbox: %q does not report its executable: %s", name, hint)
	}
	return exe, nil
}
