package terminal_test

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/terminal"
	"github.com/gemgo/gemgo/sandbox"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// writeTask writes a task directory from name -> content (task.yaml,
// solution.sh and tests/test_outputs.py get defaults) and loads it.
func writeTask(t *testing.T, files map[string]string) *terminal.Task {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "mini")
	all := map[string]string{
		"task.yaml":             "instruction: write done.txt holding the word done\nmax_turns: 6\n",
		"solution.sh":           "echo done > done.txt\n",
		"tests/test_outputs.py": "def test_done():\n    assert open('done.txt').read() == 'done\\n'\n",
	}
	for k, v := range files {
		all[k] = v
	}
	for name, content := range all {
		if content == "" {
			continue // "" removes a default
		}
		p := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	}
	tasks, err := terminal.LoadDir(dir)
	require.NoError(t, err)
	require.Len(t, tasks, 1)
	return tasks[0]
}

// miniEnv is an env over one small task, reset.
func miniEnv(t *testing.T, files map[string]string, cfg terminal.Config) *terminal.Env {
	t.Helper()
	env := newEnv(t, []*terminal.Task{writeTask(t, files)}, cfg)
	_, _, err := env.Reset(1)
	require.NoError(t, err)
	return env
}

func step(t *testing.T, env *terminal.Env, action string) envs.Step {
	t.Helper()
	st, err := env.Step(action)
	require.NoError(t, err)
	return st
}

// processesWith returns the pids whose command line holds marker.
func processesWith(marker string) []string {
	var pids []string
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && bytes.Contains(b, []byte(marker)) {
			pids = append(pids, e.Name())
		}
	}
	return pids
}

// TestTimeoutKillsEveryProcess: a command that leaves a background sleep,
// a setsid'd one and a double-forked one, then sleeps past its 1 s limit,
// is reported as timed out, and none of the three is alive once Step
// returns (without the kill each would live for 97 s).
func TestTimeoutKillsEveryProcess(t *testing.T) {
	needPytest(t)
	env := miniEnv(t, nil, terminal.Config{CommandTimeout: time.Second})
	marker := fmt.Sprintf("97.%d", os.Getpid()%1000+1000)
	st := step(t, env, "<bash>sleep "+marker+"1 & setsid sleep "+marker+"2 & (setsid sh -c 'sleep "+marker+"3 &' &); sleep 30</bash>")
	assert.Contains(t, st.Obs, "Timed out after 1s: the command and every process it started were killed.")
	assert.Equal(t, "timeout", st.Info["status"])
	assert.False(t, st.Done())
	assert.Empty(t, processesWith("sleep\x00"+marker), "a process the command started outlived its timeout")
}

// TestObservation: the exit code, stderr joined to stdout, the work dir's
// path shown as ".", cd not persisting, and the head+tail cut of long
// output with its marker.
func TestObservation(t *testing.T) {
	needPytest(t)
	env := miniEnv(t, nil, terminal.Config{OutputBytes: 256})
	st := step(t, env, "<bash>echo out; echo err >&2; exit 3</bash>")
	assert.Equal(t, "<bash_output>\nout\nerr\n\n</bash_output>\nExit code 3.", st.Obs)
	assert.Equal(t, 3, st.Info["exit_code"])

	st = step(t, env, "<bash>cd .. && cd app && mkdir -p sub && cd sub && pwd</bash>")
	assert.Contains(t, st.Obs, "<bash_output>\n./sub\n")
	assert.Contains(t, st.Obs, "cd and export last only for this command")
	st = step(t, env, "<bash>pwd; ls -A ..</bash>")
	assert.Equal(t, "<bash_output>\n.\napp\n\n</bash_output>\nExit code 0.", st.Obs, "the tests are nowhere near the work dir during the episode")

	st = step(t, env, "<bash>seq 1 5000</bash>")
	head, rest, ok := strings.Cut(st.Obs, "\n[... ")
	require.True(t, ok, st.Obs)
	assert.True(t, strings.HasPrefix(head, "<bash_output>\n1\n2\n3\n"))
	assert.Contains(t, rest, " bytes cut ...]\n")
	assert.True(t, strings.HasSuffix(rest, "4999\n5000\n\n</bash_output>\nExit code 0."), rest)
	assert.Less(t, len(st.Obs), 256+200)
}

// TestTurnCapTruncates: the last allowed action ends the episode as
// truncated, and the verifier scores what is there.
func TestTurnCapTruncates(t *testing.T) {
	needPytest(t)
	env := miniEnv(t, nil, terminal.Config{MaxTurns: 2})
	st := step(t, env, "no tag at all")
	assert.Equal(t, true, st.Info[envs.InfoFormatError])
	assert.False(t, st.Done())
	st = step(t, env, "<bash>echo done > done.txt</bash>")
	assert.True(t, st.Truncated)
	assert.False(t, st.Terminated)
	assert.Equal(t, 1.0, st.Reward)
	assert.Contains(t, st.Obs, "That was your last action (the turn limit).\n1 of 1 tests passed; reward 1.")
	assert.Equal(t, "max_turns", st.Info["truncated_by"])
	_, err := env.Step("<finish/>")
	assert.ErrorIs(t, err, envs.ErrNotReset)
}

// TestEpisodeBudget: the commands' total time is capped by
// max_agent_timeout_sec; a command is cut at what is left, and the
// episode ends truncated.
func TestEpisodeBudget(t *testing.T) {
	needPytest(t)
	env := miniEnv(t, map[string]string{"task.yaml": "instruction: x\nmax_agent_timeout_sec: 1\n"}, terminal.Config{})
	st := step(t, env, "<bash>sleep 20</bash>")
	assert.Contains(t, st.Obs, "Timed out after 1s")
	assert.Contains(t, st.Obs, "The episode's command time is used up.")
	assert.Equal(t, "max_agent_timeout_sec", st.Info["truncated_by"])
	assert.True(t, st.Truncated)
	assert.Equal(t, 0.0, st.Reward)
}

// TestYAMLBody: GEM's YAML body runs its cmd; timeout_secs shortens the
// limit and cannot lengthen it.
func TestYAMLBody(t *testing.T) {
	needPytest(t)
	env := miniEnv(t, nil, terminal.Config{CommandTimeout: 5 * time.Second})
	st := step(t, env, "<bash>\ncmd: 'echo $((6*7))'\n</bash>")
	assert.Equal(t, "<bash_output>\n42\n\n</bash_output>\nExit code 0.", st.Obs)
	st = step(t, env, "<bash>cmd: sleep 20\ntimeout_secs: 1</bash>")
	assert.Contains(t, st.Obs, "Timed out after 1s")
	st = step(t, env, "<bash>{cmd: sleep 20, timeout_secs: 0.5}</bash>")
	assert.Contains(t, st.Obs, "Timed out after 500ms")
}

// TestWeightedScore: weights over tests, a skipped test failing, and a
// weighted test that never ran counting as failed.
func TestWeightedScore(t *testing.T) {
	needPytest(t)
	env := miniEnv(t, map[string]string{
		"task.yaml": "instruction: x\ntest_weights: {test_a: 1, test_b: 2, test_c: 4, test_gone: 8}\n",
		"tests/test_outputs.py": "import pytest\n\ndef test_a():\n    pass\n\ndef test_b():\n    pytest.skip('no')\n\n" +
			"def test_c():\n    assert False\n\nif False:\n    def test_gone():\n        pass\n",
	}, terminal.Config{})
	st := step(t, env, "<finish></finish>")
	assert.Equal(t, 1.0/15, st.Reward)
	assert.Equal(t, map[string]string{"test_a": "passed", "test_b": "skipped", "test_c": "failed", "test_gone": "missing"}, st.Info["tests"])
	assert.Equal(t, false, st.Info[envs.InfoSuccess])
}

// TestNoPassWithoutTests: a collection error, zero tests and a reward file
// that is not a number all score 0, with a verifier_error saying why.
func TestNoPassWithoutTests(t *testing.T) {
	needPytest(t)
	for name, files := range map[string]map[string]string{
		"collection error": {"tests/test_outputs.py": "def test_a():\n    pass\n", "tests/test_broken.py": "import no_such_module\n"},
		"zero tests":       {"tests/test_outputs.py": "def helper():\n    pass\n"},
		"bad reward file":  {"tests/test_outputs.py": "", "tests/run-tests.sh": "echo PASSED; echo lots > \"$REWARD_FILE\"\n"},
		"no reward file":   {"tests/test_outputs.py": "", "tests/run-tests.sh": "echo 1\n"},
	} {
		t.Run(name, func(t *testing.T) {
			env := miniEnv(t, files, terminal.Config{})
			st := step(t, env, "<bash>echo done > done.txt</bash>")
			st = step(t, env, "<finish></finish>")
			assert.Equal(t, 0.0, st.Reward, st.Obs)
			assert.NotEmpty(t, st.Info["verifier_error"])
		})
	}
}

// TestRewardFile: run-tests.sh runs in the work dir and its reward is
// read from $REWARD_FILE.
func TestRewardFile(t *testing.T) {
	needPytest(t)
	env := miniEnv(t, map[string]string{"tests/test_outputs.py": "", "tests/run-tests.sh": "n=$(cat n.txt)\necho \"0.$n\" > \"$REWARD_FILE\"\n"}, terminal.Config{})
	step(t, env, "<bash>echo 25 > n.txt</bash>")
	st := step(t, env, "<finish></finish>")
	assert.Equal(t, 0.25, st.Reward)
}

// TestHostileCommands: programs of the sandbox's hostile set, run as
// commands, are contained where the isolation in force promises it: the
// caller survives, outside files stay unread and unwritten, the host's
// loopback is out of reach, a fork bomb ends at the limit, and the episode
// goes on.
func TestHostileCommands(t *testing.T) {
	needPytest(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	port := ln.Addr().(*net.TCPAddr).Port
	outside := filepath.Join(t.TempDir(), "private")
	require.NoError(t, os.WriteFile(outside, []byte("secret"), 0o600))
	env := miniEnv(t, nil, terminal.Config{CommandTimeout: 3 * time.Second, MaxTurns: 20})
	type hostile struct{ cmd, want string }
	cases := []hostile{
		{"cat /etc/shadow >/dev/null && echo ESCAPED || echo contained", "contained"},
		{"echo x > /etc/gemgo-terminal-hostile && echo ESCAPED || echo contained", "contained"},
		{"env | grep -q GEMGO_TEST_SECRET && echo ESCAPED || echo contained", "contained"},
		{"f() { f | f; }; f", "</bash_output>"}, // a fork bomb: stopped by the process cap and the timeout
	}
	iso := sandbox.Detect()
	if iso.Unprivileged { // a uid of its own: the caller's private files are out of reach
		cases = append(cases, hostile{"cat " + outside + " && echo ESCAPED || echo contained", "contained"})
	}
	if iso.Unprivileged || iso.NetworkIsolated() { // a uid or a PID namespace of its own: the caller cannot be signalled
		cases = append(cases, hostile{"kill -9 $PPID 2>/dev/null; kill -9 -1 2>/dev/null; echo contained", "contained"})
	}
	if iso.NetworkIsolated() {
		cases = append(cases, hostile{fmt.Sprintf("(exec 3<>/dev/tcp/127.0.0.1/%d) 2>/dev/null && echo ESCAPED || echo contained", port), "contained"})
	}
	t.Logf("isolation: %s; %d hostile commands", iso, len(cases))
	for _, c := range cases {
		st := step(t, env, "<bash>"+c.cmd+"</bash>")
		assert.Contains(t, st.Obs, c.want, c.cmd)
		assert.NotContains(t, st.Obs, "ESCAPED", c.cmd)
		assert.False(t, st.Done())
	}
	_, err = os.Stat("/etc/gemgo-terminal-hostile")
	assert.True(t, os.IsNotExist(err))
	st := step(t, env, "<bash>echo done > done.txt</bash>")
	st = step(t, env, "<finish/>")
	assert.Equal(t, 1.0, st.Reward, "the episode still scores after the hostile commands")
}

// TestTamperIsPotent shows that the tampering of TestShippedTasks would
// pass a failing test under a naive run (pytest started in the work dir),
// so that its 0 under the env's verifier is the verifier's doing.
func TestTamperIsPotent(t *testing.T) {
	needPytest(t)
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "test_x.py"), []byte("def test_x():\n    assert False\n"), 0o644))
	cmd := exec.Command("bash", "-c", plant)
	cmd.Dir = dir
	require.NoError(t, cmd.Run())
	naive := exec.Command("/usr/bin/python3", "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_x.py")
	naive.Dir = dir
	naive.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + dir}
	out, err := naive.CombinedOutput()
	assert.NoError(t, err, "the naive run should report success: %s", out)
}
