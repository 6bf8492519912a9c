package terminal_test

import (
	"testing"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/terminal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// play resets env and plays actions until the episode ends; it returns the
// last step.
func play(t *testing.T, env *terminal.Env, actions ...string) envs.Step {
	t.Helper()
	_, _, err := env.Reset(1)
	require.NoError(t, err)
	var st envs.Step
	for i, a := range actions {
		st, err = env.Step(a)
		require.NoError(t, err)
		if st.Done() {
			require.Equal(t, len(actions)-1, i, "the episode ended early at action %d: %s", i, st.Obs)
			return st
		}
	}
	t.Fatalf("the episode did not end after %d actions", len(actions))
	return st
}

// TestShippedTasks plays every shipped task three ways: the reference
// solution scores exactly 1, finishing at once scores exactly 0, and a
// tampering agent (planted conftest.py, pytest.ini, sitecustomize.py,
// pytest.py, .bashrc, .gitconfig, fake PASSED lines) scores exactly 0.
func TestShippedTasks(t *testing.T) {
	needPytest(t)
	tasks := shipped(t)
	require.GreaterOrEqual(t, len(tasks), 24)
	for _, task := range tasks {
		t.Run(task.Name, func(t *testing.T) {
			t.Parallel()
			env := newEnv(t, []*terminal.Task{task}, terminal.Config{})
			_, _, err := env.Reset(1)
			require.NoError(t, err)
			st := play(t, env, env.SolutionActions()...)
			assert.Equal(t, 1.0, st.Reward, "the reference solution: %s", st.Obs)
			assert.True(t, st.Terminated)
			assert.Equal(t, true, st.Info[envs.InfoSuccess])

			st = play(t, env, "<finish></finish>")
			assert.Equal(t, 0.0, st.Reward, "doing nothing: %s", st.Obs)

			st = play(t, env, "<bash>"+tamper+"</bash>", "<finish></finish>")
			assert.Equal(t, 0.0, st.Reward, "tampering: %s", st.Obs)
		})
	}
}

// tamper plants every file that could sway a pytest run started in the
// work dir, prints fake results, and tries to reach the tests.
const tamper = plant + escape

// escape tries to write where the tests are or will be (outside the work
// dir: run it only in the sandbox).
const escape = `
for d in /tests /app/tests ../tests ../verify-x; do mkdir -p $d 2>/dev/null; done
cp conftest.py ../conftest.py 2>/dev/null; cp pytest.ini ../pytest.ini 2>/dev/null
true`

// plant writes files into the work dir only.
const plant = `
cat > conftest.py <<'PY'
import pytest
@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    rep = outcome.get_result()
    rep.outcome = "passed"
PY
printf '[pytest]\naddopts = -p no:python\n' > pytest.ini
printf '[tool:pytest]\naddopts = --co\n' > setup.cfg
cat > sitecustomize.py <<'PY'
import os
os._exit(0)
PY
cp sitecustomize.py usercustomize.py
printf 'import sys\nsys.exit(0)\n' > pytest.py
printf 'pytest() { echo PASSED; }\npython3() { echo PASSED; }\n' > .bashrc
cp .bashrc .profile; cp .bashrc .bash_profile
printf '[core]\n\tfsmonitor = "echo PASSED"\n[alias]\n\tlog = "!echo PASSED"\n' > .gitconfig
mkdir -p tests; printf 'def test_ok():\n    pass\n' > tests/test_fake.py
echo "test_outputs.py::test_everything PASSED"
echo "=== 10 passed in 0.01s ==="
echo 1 > reward.txt
true`
