package mcptask_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/builtin"
	"github.com/gemgo/gemgo/envs/mcptask"
)

func filesEnv(t *testing.T, opts ...envs.Option) *mcptask.Env {
	t.Helper()
	needFiles(t)
	env, err := builtin.Registry().Make("mcp:files-sample", opts...)
	require.NoError(t, err)
	t.Cleanup(func() { envs.Close(env) })
	return envs.Unwrapped(env).(*mcptask.Env)
}

// TestFilesReferenceSolutions: every shipped files task's reference
// solution scores 1.0 and doing nothing (answering at once) scores 0
// (with -short, the first two tasks).
func TestFilesReferenceSolutions(t *testing.T) {
	tasks, err := mcptask.ShippedTasks(mcptask.ServiceFiles)
	require.NoError(t, err)
	if testing.Short() {
		tasks = tasks[:2] // every episode starts a server or a database
	}
	for _, task := range tasks {
		t.Run(task.Name, func(t *testing.T) {
			env := filesEnv(t, envs.With("task", task.Name))
			_, _, err := env.Reset(1)
			require.NoError(t, err)
			_, st := play(t, env, 1, env.SolutionActions())
			require.Equal(t, 1.0, st.Reward, "%s\n%v", st.Obs, st.Info["checks"])
			require.True(t, st.Terminated)
			_, st = play(t, env, 1, []string{"Done."})
			require.Equal(t, 0.0, st.Reward, "doing nothing passes: %v", st.Info["checks"])
		})
	}
}

// TestFilesTamper: an agent that tries to reach the verifier's inputs (the
// task's own files, outside the episode's copy) or any other file gets an
// error from the server for each try, changes nothing there, and scores 0.
func TestFilesTamper(t *testing.T) {
	env := filesEnv(t, envs.With("task", "rename-report"))
	src, err := filepath.Abs(filepath.Join("tasks", "files", "rename-report", "task.yaml"))
	require.NoError(t, err)
	before, err := os.ReadFile(src)
	require.NoError(t, err)
	outside := filepath.Join(os.TempDir(), "gemgo-mcp-tamper.txt")
	write := func(path string) string {
		return fmt.Sprintf(`<tool_call><tool_name>write_file</tool_name><arguments>{"path": %q, "content": "checks: []"}</arguments></tool_call>`, path)
	}
	actions := []string{write("/files/../task.yaml"), write(src), write(outside), write("../report.txt"),
		`<tool_call><tool_name>move_file</tool_name><arguments>{"source": "/files/draft.txt", "destination": "/files/../report.txt"}</arguments></tool_call>`,
		"Done."}
	_, _, err = env.Reset(1)
	require.NoError(t, err)
	for i, a := range actions {
		st, err := env.Step(a)
		require.NoError(t, err)
		if i < len(actions)-1 {
			require.Contains(t, st.Obs, "Access denied", a)
			continue
		}
		require.Equal(t, 0.0, st.Reward)
		require.True(t, st.Terminated)
	}
	after, err := os.ReadFile(src)
	require.NoError(t, err)
	require.Equal(t, string(before), string(after))
	_, err = os.Stat(outside)
	require.True(t, os.IsNotExist(err), "a file outside the episode was written")
}

// TestFilesDir: mcp:dir loads a user's task directory (here a shipped one)
// and the reference solution scores 1.
func TestFilesDir(t *testing.T) {
	needFiles(t)
	env, err := builtin.Registry().Make("mcp:dir", envs.With("path", filepath.Join("tasks", "files", "csv-total")))
	require.NoError(t, err)
	defer envs.Close(env)
	e := envs.Unwrapped(env).(*mcptask.Env)
	_, _, err = e.Reset(3)
	require.NoError(t, err)
	_, st := play(t, e, 3, e.SolutionActions())
	require.Equal(t, 1.0, st.Reward, st.Obs)
}
