package code

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/sandbox"
)

// needPython returns the interpreter the env picks by default under the
// strongest isolation (sandbox.PythonFor), or skips, with the install
// line, where there is none the sandbox can run (CI machines have one).
func needPython(t *testing.T) string {
	t.Helper()
	py, _, err := sandbox.PythonFor(sandbox.DefaultPython, sandbox.Detect())
	if err != nil {
		t.Skipf("the code env runs real python3 programs: %v", err)
	}
	return py
}

func registry(t *testing.T) *envs.Registry {
	t.Helper()
	r := envs.NewRegistry()
	require.NoError(t, Register(r))
	return r
}

func block(code string) string { return "My answer:\n```python\n" + code + "\n```\n" }

// sumTwo is the first sample problem; newEnv builds an env on it alone.
func sumTwo(t *testing.T) Problem {
	t.Helper()
	p := SampleProblems()[0]
	require.Equal(t, "sum_two", p.ID)
	return p
}

func newEnv(t *testing.T, p Problem, cfg Config) *Env {
	t.Helper()
	needPython(t)
	env, err := New([]Problem{p}, cfg)
	require.NoError(t, err)
	return env
}

func step(t *testing.T, env *Env, action string) envs.Step {
	t.Helper()
	_, _, err := env.Reset(1)
	require.NoError(t, err)
	st, err := env.Step(action)
	require.NoError(t, err)
	require.True(t, st.Terminated)
	require.False(t, st.Truncated)
	return st
}

// loaded gives correct programs room on a busy machine.
func loaded() Config {
	cfg := DefaultConfig()
	cfg.Timeout = 20 * time.Second
	return cfg
}

// strict are the limits of the bad-program tests: 1 s, 64 MiB, 4 KiB.
func strict() Config {
	cfg := DefaultConfig()
	cfg.Timeout = time.Second
	cfg.MemoryBytes = 64 << 20
	cfg.OutputBytes = 4 << 10
	return cfg
}

func TestReferenceSolutionsPassEveryTest(t *testing.T) {
	t.Parallel()
	py := needPython(t)
	j := Judge{Python: py, Isolation: sandbox.Detect(), Limits: sandbox.Limits{Wall: 30 * time.Second, CPU: 10 * time.Second, MemoryBytes: 256 << 20, OutputBytes: 1 << 20}, Concurrency: 8}
	for _, p := range SampleProblems() {
		src, err := os.ReadFile(filepath.Join("testdata", "solutions", p.ID+".py"))
		require.NoError(t, err)
		res, err := j.Run(context.Background(), string(src), p.Tests)
		require.NoError(t, err)
		for _, r := range res {
			assert.Equal(t, Passed, r.Verdict, "%s: %s", p.ID, r)
		}
	}
}

func TestCorrectAndWrongSolution(t *testing.T) {
	t.Parallel()
	env := newEnv(t, sumTwo(t), loaded())
	st := step(t, env, block("a, b = map(int, input().split())\nprint(a + b)"))
	assert.Equal(t, 1.0, st.Reward)
	assert.Equal(t, true, st.Info["correct"])
	assert.Equal(t, true, st.Info[envs.InfoSuccess])
	assert.Equal(t, 5, st.Info["passed"])
	assert.Equal(t, []int(nil), st.Info["failed"])
	assert.Equal(t, "All 5 tests passed.", st.Obs)

	// a - b is right only on test 4 (0 0).
	st = step(t, env, block("a, b = map(int, input().split())\nprint(a - b)"))
	assert.Equal(t, 0.0, st.Reward)
	assert.Equal(t, false, st.Info["correct"])
	assert.Equal(t, false, st.Info[envs.InfoSuccess])
	assert.Equal(t, 1, st.Info["passed"])
	assert.Equal(t, 5, st.Info["total"])
	assert.Equal(t, []int{1, 2, 3, 5}, st.Info["failed"])
	results := st.Info["tests"].([]TestResult)
	assert.Equal(t, TestResult{Test: 1, Verdict: WrongAnswer, Detail: `line 1: expected "3", got "-1"`}, results[0])
	assert.Equal(t, Passed, results[3].Verdict)
	assert.Equal(t, "1 of 5 tests passed.\ntest 1: wrong_answer (line 1: expected \"3\", got \"-1\")\n"+
		"test 2: wrong_answer (line 1: expected \"0\", got \"-10\")\n"+
		"test 3: wrong_answer (line 1: expected \"2000000000000000000\", got \"0\")\n…", st.Obs)
}

func TestFormatError(t *testing.T) {
	env := newEnv(t, sumTwo(t), loaded())
	for _, action := range []string{"", "print(1)", `\boxed{3}`, "```bash\necho 3\n```", "```python\nprint(3)\n"} {
		st := step(t, env, action)
		assert.Equal(t, envs.RewardFormatError, st.Reward, action)
		assert.Equal(t, true, st.Info[envs.InfoFormatError], action)
		assert.Equal(t, false, st.Info["correct"], action)
		_, err := env.Step(block("print(3)"))
		assert.ErrorIs(t, err, envs.ErrNotReset, "single turn")
	}
	cfg := loaded()
	cfg.FormatPenalty = 0
	st := step(t, newEnv(t, sumTwo(t), cfg), "no code")
	assert.Equal(t, 0.0, st.Reward)
}

// Each bad program gets its verdict and detail on both paths: forked from
// a warm interpreter and in a fresh process.
func TestBadProgramsGetTheirVerdict(t *testing.T) {
	t.Parallel()
	for _, fresh := range []bool{false, true} {
		t.Run(fmt.Sprintf("fresh=%v", fresh), func(t *testing.T) {
			t.Parallel()
			badPrograms(t, fresh)
		})
	}
}

func badPrograms(t *testing.T, fresh bool) {
	p := Problem{ID: "one", Question: "Print 1.", Tests: []Test{{"", "1\n"}}}
	// Only the time-limit cases get the 1 s limit: the others must not
	// turn into timeouts on a loaded machine.
	cfg := strict()
	cfg.FreshProcess = fresh
	timed := newEnv(t, p, cfg)
	roomy := cfg
	roomy.Timeout = 20 * time.Second
	untimed := newEnv(t, p, roomy)
	for _, tc := range []struct {
		name, code string
		env        *Env
		verdict    Verdict
		detail     string
	}{
		{"infinite loop", "while True:\n    pass", timed, TimeLimit, "limit of 1s reached"},
		{"sleep", "import time\ntime.sleep(30)", timed, TimeLimit, "wall-clock limit of 1s reached"},
		{"memory bomb", "x = bytearray(1 << 30)", untimed, MemoryLimit, "memory limit of 64 MiB reached"},
		{"output flood", "while True:\n    print('1' * 100)", untimed, OutputLimit, "more than 4 KiB of output"},
		{"runtime error", "print(1 // 0)", untimed, RuntimeError, "exit code 1: "},
		{"exit code", "import sys\nprint(1)\nsys.exit(4)", untimed, RuntimeError, "exit code 4"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := step(t, tc.env, block(tc.code))
			assert.Equal(t, 0.0, st.Reward)
			results := st.Info["tests"].([]TestResult)
			require.Len(t, results, 1)
			assert.Equal(t, tc.verdict, results[0].Verdict, results[0].Detail)
			assert.Contains(t, results[0].Detail, tc.detail)
			assert.Equal(t, []int{1}, st.Info["failed"])
		})
	}
	st := step(t, untimed, block("print(1 // 0)"))
	assert.Contains(t, st.Info["tests"].([]TestResult)[0].Detail, "ZeroDivisionError: integer division or modulo by zero", "the tail of stderr")

	// A traceback naming the file: the same on every run (the temp dir is
	// stripped).
	deep := "def f():\n    raise ValueError('x')\ndef g():\n    f()\ng()"
	first := step(t, untimed, block(deep)).Info["tests"].([]TestResult)[0].Detail
	again := step(t, untimed, block(deep)).Info["tests"].([]TestResult)[0].Detail
	assert.Equal(t, first, again)
	assert.Contains(t, first, `File "main.py", line 2, in f`)
	assert.NotContains(t, first, "gemgo-sandbox-")
}

func TestNetworkBlockedInsideTheEnv(t *testing.T) {
	t.Parallel()
	needPython(t)
	if !sandbox.Detect().NetworkIsolated() {
		t.Skipf("no network isolation on this machine (%s)", sandbox.Detect())
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			_, _ = c.Write([]byte("1\n"))
			c.Close()
		}
	}()
	port := ln.Addr().(*net.TCPAddr).Port
	// The listener sends the right answer: only a connection could pass.
	code := fmt.Sprintf("import socket\ns = socket.create_connection(('127.0.0.1', %d), timeout=2)\nprint(s.recv(2).decode().strip())", port)
	p := Problem{ID: "net", Question: "Print 1.", Tests: []Test{{"", "1\n"}}}
	st := step(t, newEnv(t, p, loaded()), block(code))
	assert.Equal(t, 0.0, st.Reward)
	r := st.Info["tests"].([]TestResult)[0]
	assert.Equal(t, RuntimeError, r.Verdict)
	// bwrap's namespace has its own loopback (up, nothing listening),
	// a bare network namespace a loopback that is down.
	assert.Regexp(t, "ConnectionRefusedError|Network is unreachable", r.Detail)
}

func TestBadSolutionDoesNotDisturbGoodOne(t *testing.T) {
	t.Parallel()
	bad := newEnv(t, sumTwo(t), strict())
	good := newEnv(t, sumTwo(t), loaded())
	var wg sync.WaitGroup
	var badSt, goodSt envs.Step
	wg.Add(2)
	go func() {
		defer wg.Done()
		_, _, _ = bad.Reset(1)
		badSt, _ = bad.Step(block("import sys\nsys.stdout.write('x' * 100)\na = []\nwhile True:\n    a.append(bytearray(1 << 16))"))
	}()
	go func() {
		defer wg.Done()
		_, _, _ = good.Reset(1)
		goodSt, _ = good.Step(block("a, b = map(int, input().split())\nprint(a + b)"))
	}()
	wg.Wait()
	assert.Equal(t, 0.0, badSt.Reward)
	assert.Equal(t, 1.0, goodSt.Reward, "%s", goodSt.Obs)
}

func TestFailFastSkipsLaterTests(t *testing.T) {
	t.Parallel()
	p := Problem{ID: "echo", Question: "Echo.", Tests: []Test{{"1", "1"}, {"2", "x"}, {"3", "3"}, {"4", "y"}, {"5", "5"}}}
	cfg := loaded()
	cfg.FailFast = true
	cfg.Concurrency = 2
	env := newEnv(t, p, cfg)
	for range 3 {
		st := step(t, env, block("print(input())"))
		results := st.Info["tests"].([]TestResult)
		verdicts := make([]Verdict, len(results))
		for i, r := range results {
			verdicts[i] = r.Verdict
		}
		assert.Equal(t, []Verdict{Passed, WrongAnswer, Skipped, Skipped, Skipped}, verdicts)
		assert.Equal(t, []int{2}, st.Info["failed"])
	}
	cfg.FailFast = false
	st := step(t, newEnv(t, p, cfg), block("print(input())"))
	assert.Equal(t, []int{2, 4}, st.Info["failed"])
	assert.Equal(t, 3, st.Info["passed"])
}

func TestResetPicksProblemBySeed(t *testing.T) {
	needPython(t)
	env, err := registry(t).Make("code:sample")
	require.NoError(t, err)
	seen := map[any]bool{}
	for seed := range uint64(300) {
		obs, info, err := env.Reset(seed)
		require.NoError(t, err)
		obs2, info2, err := env.Reset(seed)
		require.NoError(t, err)
		assert.Equal(t, obs, obs2)
		assert.Equal(t, info, info2)
		assert.Equal(t, 1, info[envs.InfoMaxTurns])
		assert.Contains(t, obs, "```python")
		seen[info["problem_id"]] = true
	}
	assert.Len(t, seen, 22, "every problem is drawn")

	brief, err := registry(t).Make("code:sample", envs.With("style", "brief"))
	require.NoError(t, err)
	obs, _, _ := brief.Reset(3)
	full, _, _ := env.Reset(3)
	assert.True(t, strings.HasPrefix(obs, "Python 3, stdin to stdout"))
	assert.Less(t, len(obs), len(full))
}

func TestSampleActionAlwaysParses(t *testing.T) {
	t.Parallel()
	needPython(t)
	env := newEnv(t, sumTwo(t), loaded())
	r := rand.New(rand.NewPCG(1, 2))
	kinds := map[string]bool{}
	for range 500 {
		a := env.SampleAction(r)
		code, ok := ExtractCode(a)
		require.True(t, ok, a)
		kinds[code] = true
	}
	assert.Greater(t, len(kinds), 20, "varied programs")
	// Every body runs: none is a syntax error.
	for i := range sampleBodies {
		st := step(t, env, block(fmt.Sprintf(sampleBodies[i], 0)))
		for _, res := range st.Info["tests"].([]TestResult) {
			assert.NotContains(t, res.Detail, "SyntaxError")
		}
	}
}

func TestMakeOptions(t *testing.T) {
	t.Parallel()
	needPython(t)
	r := registry(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "set.jsonl")
	require.NoError(t, os.WriteFile(path, []byte(`{"q": "Print 7.", "t": [{"input": "", "output": "7"}]}`+"\n"), 0o644))
	env, err := r.Make("code:jsonl", envs.With("path", path), envs.With("question_field", "q"), envs.With("tests_field", "t"),
		envs.With("timeout", 20), envs.With("memory_mb", 128), envs.With("output_kb", 8), envs.With("concurrency", 2),
		envs.With("python", "python3"), envs.With("max_tests", 3), envs.With("fail_fast", true))
	require.NoError(t, err)
	obs, _, err := env.Reset(0)
	require.NoError(t, err)
	assert.Contains(t, obs, "Print 7.")
	st, err := env.Step(block("print(7)"))
	require.NoError(t, err)
	assert.Equal(t, 1.0, st.Reward)

	for _, tc := range []struct {
		id   string
		opts []envs.Option
		want string
	}{
		{"code:jsonl", nil, "option path is required"},
		{"code:jsonl", []envs.Option{envs.With("path", filepath.Join(dir, "nope.jsonl"))}, "nope.jsonl"},
		{"code:sample", []envs.Option{envs.With("timeout", 0)}, "timeout = 0 is out of range"},
		{"code:sample", []envs.Option{envs.With("memory_mb", "lots")}, "memory_mb"},
		{"code:sample", []envs.Option{envs.With("concurrency", 0)}, "concurrency"},
		{"code:sample", []envs.Option{envs.With("path", "x")}, "unknown option path"},
		{"code:sample", []envs.Option{envs.With("python", "no-such-python-gemgo")}, "apt-get install python3"},
		{"code:sample", []envs.Option{envs.With("isolation", "chroot")}, "allowed values are auto, bwrap, netns"},
	} {
		_, err := r.Make(tc.id, tc.opts...)
		assert.ErrorContains(t, err, tc.want, "%s %v", tc.id, tc.opts)
	}
	// Every isolation that works here can be chosen; the env says which.
	picked := map[string]bool{}
	for _, iso := range sandbox.Available() {
		if picked[iso.Network] {
			continue // a name picks its strongest setup (with a pid namespace)
		}
		picked[iso.Network] = true
		env, err := r.Make("code:sample", envs.With("isolation", iso.Network))
		py, note, perr := sandbox.PythonFor(sandbox.DefaultPython, iso)
		if perr != nil {
			// no interpreter this isolation can reach (only a root-only
			// Python): the env says so at once, not at every solution
			assert.ErrorContains(t, err, perr.Error())
			continue
		}
		require.NoError(t, err)
		require.NoError(t, iso.CanRun(py), "the default interpreter is one the sandbox can run")
		_, info, err := env.Reset(0)
		require.NoError(t, err)
		if note == "" {
			note = "python: " + py
		}
		assert.Equal(t, iso.String()+"; "+note, info["sandbox"], "the isolation, then the interpreter")
	}
	for _, name := range []string{sandbox.NetBwrap, sandbox.NetNamespace, sandbox.NetUserNamespace} {
		if !picked[name] {
			_, err := r.Make("code:sample", envs.With("isolation", name))
			assert.ErrorContains(t, err, "not available on this machine")
		}
	}

	bad := filepath.Join(dir, "bad.jsonl")
	require.NoError(t, os.WriteFile(bad, []byte(`{"question": "q", "tests": [{"input": "", "output": "1"}]}`+"\n{oops\n"), 0o644))
	_, err = r.Make("code:jsonl", envs.With("path", bad))
	assert.ErrorContains(t, err, bad+" line 2")
}
