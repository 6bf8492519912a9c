package terminal_test

import (
	"testing"

	"github.com/gemgo/gemgo/envs/terminal"
	"github.com/stretchr/testify/require"
)

// pytestTask is a shipped task scored by pytest.
func pytestTask(t *testing.T) *terminal.Task {
	t.Helper()
	for _, task := range shipped(t) {
		if !task.RunTests {
			return task
		}
	}
	t.Fatal("no shipped task is scored by pytest")
	return nil
}

// needPytest skips t where the verifier cannot run pytest.
func needPytest(t *testing.T) {
	t.Helper()
	if _, err := terminal.New([]*terminal.Task{pytestTask(t)}, terminal.Config{}); err != nil {
		t.Skipf("the terminal envs' verifier cannot run here: %v", err)
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
