package terminal_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gemgo/gemgo/envs/terminal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLoadErrors: a bad task directory is an error that names the task
// and the problem.
func TestLoadErrors(t *testing.T) {
	for name, c := range map[string]struct {
		files map[string]string
		want  string
	}{
		"unknown key":     {map[string]string{"task.yaml": "instruction: x\nmax_turn: 3\n"}, "field max_turn not found"},
		"no instruction":  {map[string]string{"task.yaml": "max_turns: 3\n"}, "instruction is empty"},
		"bad limit":       {map[string]string{"task.yaml": "instruction: x\ncommand_timeout_sec: -1\n"}, "command_timeout_sec = -1: want 0.1 to 3600 seconds"},
		"no solution":     {map[string]string{"solution.sh": ""}, "read solution.sh (the reference solution, required)"},
		"no tests":        {map[string]string{"tests/test_outputs.py": "", "tests/notes.txt": "x"}, "tests/ holds no .py file and no run-tests.sh"},
		"weights typo":    {map[string]string{"task.yaml": "instruction: x\ntest_weights: {done: 1}\n"}, "test_weights names done, which no test file defines"},
		"weights all 0":   {map[string]string{"task.yaml": "instruction: x\ntest_weights: {test_done: 0}\n"}, "gives no test a weight > 0"},
		"weights+reward":  {map[string]string{"task.yaml": "instruction: x\ntest_weights: {test_done: 1}\n", "tests/run-tests.sh": "echo 1 > $REWARD_FILE\n"}, "test_weights needs pytest tests"},
		"missing tests/":  {map[string]string{"tests/test_outputs.py": ""}, "tests/ (required"},
		"bad task.yaml":   {map[string]string{"task.yaml": "instruction: [\n"}, "task.yaml"},
		"negative weight": {map[string]string{"task.yaml": "instruction: x\ntest_weights: {test_done: -1}\n"}, "want >= 0"},
	} {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "bad-task")
			all := map[string]string{
				"task.yaml":             "instruction: x\n",
				"solution.sh":           "true\n",
				"tests/test_outputs.py": "def test_done():\n    pass\n",
			}
			for k, v := range c.files {
				all[k] = v
			}
			for k, v := range all {
				if v == "" {
					continue
				}
				require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, k)), 0o755))
				require.NoError(t, os.WriteFile(filepath.Join(dir, k), []byte(v), 0o644))
			}
			_, err := terminal.LoadDir(dir)
			require.Error(t, err)
			assert.Contains(t, err.Error(), "task bad-task")
			assert.Contains(t, err.Error(), c.want)
		})
	}
	_, err := terminal.LoadDir(t.TempDir())
	assert.ErrorContains(t, err, "no task found")
	_, err = terminal.LoadDir("/no/such/dir")
	assert.ErrorContains(t, err, "option path")
}

// TestLoadDirOfTasks: a directory of task directories loads each, sorted.
func TestLoadDirOfTasks(t *testing.T) {
	tasks, err := terminal.LoadDir("tasks")
	require.NoError(t, err)
	require.Len(t, tasks, len(shipped(t)))
	assert.Equal(t, "access-log-report", tasks[0].Name)
	assert.False(t, tasks[0].RunTests)
	one, err := terminal.LoadDir(filepath.Join("tasks", "fix-permissions"))
	require.NoError(t, err)
	assert.Equal(t, "fix-permissions", one[0].Name)
	assert.True(t, one[0].RunTests)
}

// TestTestsReadAtLoad: the tests are read when the env is made; rewriting
// them on disk during the episode (as a process that could reach the
// task directory might) changes nothing.
func TestTestsReadAtLoad(t *testing.T) {
	needPytest(t)
	dir := filepath.Join(t.TempDir(), "mini")
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "tests"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "task.yaml"), []byte("instruction: x\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "solution.sh"), []byte("true\n"), 0o644))
	test := filepath.Join(dir, "tests", "test_outputs.py")
	require.NoError(t, os.WriteFile(test, []byte("def test_x():\n    assert False\n"), 0o644))
	tasks, err := terminal.LoadDir(dir)
	require.NoError(t, err)
	env := newEnv(t, tasks, terminal.Config{})
	_, _, err = env.Reset(1)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(test, []byte("def test_x():\n    pass\n"), 0o644))
	st := step(t, env, "<finish></finish>")
	assert.Equal(t, 0.0, st.Reward)
}
