package terminal_test

import (
	"os/exec"
	"testing"

	"github.com/gemgo/gemgo/envs/terminal"
	"github.com/gemgo/gemgo/sandbox"
	"github.com/stretchr/testify/require"
)

// needPytest skips t where the verifier cannot run pytest.
func needPytest(t *testing.T) {
	t.Helper()
	py, _, err := sandbox.PythonFor(sandbox.DefaultPython, sandbox.Detect())
	if err != nil {
		t.Skipf("the terminal envs' verifier needs python3: %v", err)
	}
	if exec.Command(py, "-I", "-c", "import pytest").Run() != nil {
		t.Skipf("the terminal envs' verifier needs pytest for %s: apt-get install python3-pytest", py)
	}
}

// shipped returns the shipped tasks.
func shipped(t *testing.T) []*terminal.Task {
	t.Helper()
	tasks, err := terminal.ShippedTasks()
	require.NoError(t, err)
	return tasks
}

// newEnv returns an env over tasks with cfg, closed at the end of t.
func newEnv(t *testing.T, tasks []*terminal.Task, cfg terminal.Config) *terminal.Env {
	t.Helper()
	env, err := terminal.New(tasks, cfg)
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, env.Close()) })
	return env
}
