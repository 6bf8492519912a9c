package code

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/sandbox"
)

// Config is what a code env is built from. Zero fields take the defaults
// of DefaultConfig.
type Config struct {
	// Python is the interpreter, a command on PATH or a path. The default,
	// sandbox.DefaultPython ("python3"), is PATH's python3 or, where the
	// isolation cannot run that one (a root-only pyenv without bwrap), a
	// Python 3 every user may run (sandbox.PythonFor); any other value is
	// kept as given. Info["sandbox"] names the one in use.
	Python string
	// Timeout is each test's wall-clock limit; the CPU limit is the same,
	// rounded up to whole seconds (RLIMIT_CPU's unit).
	Timeout time.Duration
	// MemoryBytes is each test's address-space limit.
	MemoryBytes int64
	// OutputBytes is the most output a test may write (stdout, stderr).
	OutputBytes int64
	// Concurrency is how many tests of one step run at once.
	Concurrency int
	// FailFast skips the tests after the first failing one.
	FailFast bool
	// Style is the instruction style (envs.StyleGEM or envs.StyleBrief).
	Style envs.Style
	// Isolation names the sandbox isolation to run tests under: "auto" or
	// "" (the strongest, sandbox.Detect), or a sandbox.Isolation.Network
	// value of one of sandbox.Available ("bwrap", "netns", "userns+netns",
	// "none"): weaker ones start faster.
	Isolation string
	// FormatPenalty is the penalty of a response without a code block (the
	// reward is -FormatPenalty); it takes the value given, 0 included.
	FormatPenalty float64
	// FreshProcess runs every test in a fresh interpreter rather than one
	// forked from a warm interpreter (Judge.FreshProcess).
	FreshProcess bool
}

// DefaultConfig returns GEM's settings: a 1 s limit per test, 256 MiB,
// 1 MiB of output, 4 tests at a time, a -0.1 format-error reward.
func DefaultConfig() Config {
	return Config{
		Python:        sandbox.DefaultPython,
		Timeout:       time.Second,
		MemoryBytes:   256 << 20,
		OutputBytes:   1 << 20,
		Concurrency:   4,
		Style:         envs.StyleGEM,
		FormatPenalty: -envs.RewardFormatError,
	}
}

// Env is a single-turn coding task: the observation is a problem, the
// action a response holding a Python program, the reward 1 when the
// program passes every test of the problem and 0 otherwise.
type Env struct {
	problems []Problem
	cfg      Config
	judge    Judge
	iso      string
	rng      *rand.Rand
	cur      int
	active   bool
}

var (
	_ envs.Env                 = (*Env)(nil)
	_ envs.ActionSampler       = (*Env)(nil)
	_ envs.FormatErrorRewarder = (*Env)(nil)
)

// New returns an env over problems. It fails when problems is empty, a
// problem has no tests, or the Python interpreter cannot be run (the error
// says how to install it).
func New(problems []Problem, cfg Config) (*Env, error) {
	d := DefaultConfig()
	if cfg.Python == "" {
		cfg.Python = d.Python
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = d.Timeout
	}
	if cfg.MemoryBytes <= 0 {
		cfg.MemoryBytes = d.MemoryBytes
	}
	if cfg.OutputBytes <= 0 {
		cfg.OutputBytes = d.OutputBytes
	}
	if cfg.Concurrency <= 0 {
		cfg.Concurrency = d.Concurrency
	}
	if cfg.Style == "" {
		cfg.Style = d.Style
	}
	if len(problems) == 0 {
		return nil, errors.New("code: no problems: give at least one")
	}
	for _, p := range problems {
		if len(p.Tests) == 0 {
			return nil, fmt.Errorf("code: problem %s has no tests", p.ID)
		}
	}
	iso, err := sandbox.Pick(cfg.Isolation)
	if err != nil {
		return nil, fmt.Errorf("code: %w", err)
	}
	// The interpreter is one the sandbox can start (the default python3
	// falls back to one it can): one it cannot start fails every solution
	// alike; said now, it stops a run before it trains on those failures.
	py, note, err := sandbox.PythonFor(cfg.Python, iso)
	if err != nil {
		return nil, fmt.Errorf("code envs run solutions with Python 3: %w (option python)", err)
	}
	if note == "" {
		note = "python: " + py
	}
	return &Env{
		problems: problems,
		cfg:      cfg,
		judge: Judge{
			Python: py,
			Limits: sandbox.Limits{
				Wall:        cfg.Timeout,
				CPU:         cfg.Timeout,
				MemoryBytes: cfg.MemoryBytes,
				OutputBytes: cfg.OutputBytes,
			},
			Concurrency:  cfg.Concurrency,
			FailFast:     cfg.FailFast,
			Isolation:    iso,
			FreshProcess: cfg.FreshProcess,
		},
		iso: iso.String() + "; " + note,
	}, nil
}

// Problems returns the env's problem set (not a copy: do not modify it).
func (e *Env) Problems() []Problem { return e.problems }

// FormatErrorReward is the reward of a response without a code block.
func (e *Env) FormatErrorReward() float64 { return -e.cfg.FormatPenalty }

// Reset picks a problem with the env's own generator seeded by seed.
func (e *Env) Reset(seed uint64) (string, envs.Info, error) {
	e.rng = rand.New(rand.NewPCG(seed, 0x636f6465)) // "code"
	e.cur = e.rng.IntN(len(e.problems))
	e.active = true
	p := e.problems[e.cur]
	return e.instructions(p), envs.Info{
		envs.InfoMaxTurns: 1,
		"problem_id":      p.ID,
		"num_tests":       len(p.Tests),
		"sandbox":         e.iso,
	}, nil
}

func (e *Env) instructions(p Problem) string {
	if e.cfg.Style == envs.StyleBrief {
		return "Python 3, stdin to stdout, in a ```python block.\n" + p.Question
	}
	return p.Question + "\n\nWrite a Python 3 program that reads the input from standard input and " +
		"prints the answer to standard output. Put the whole program in one ```python fenced code block```; " +
		"it is run on hidden tests and must pass all of them."
}

// Step judges the program in action (its last python code block) on every
// test of the problem.
func (e *Env) Step(action string) (envs.Step, error) {
	if !e.active {
		return envs.Step{}, envs.ErrNotReset
	}
	e.active = false
	p := e.problems[e.cur]
	info := envs.Info{envs.InfoTurn: 1, "problem_id": p.ID, "sandbox": e.iso}
	code, ok := ExtractCode(action)
	if !ok {
		info[envs.InfoFormatError] = true
		info[envs.InfoSuccess] = false
		info["correct"] = false
		return envs.Step{
			Obs:        "No code block found: put the program in a ```python fenced block.",
			Reward:     e.FormatErrorReward(),
			Terminated: true,
			Info:       info,
		}, nil
	}
	results, err := e.judge.Run(context.Background(), code, p.Tests)
	if err != nil {
		return envs.Step{}, fmt.Errorf("code: problem %s: %w", p.ID, err)
	}
	passed := 0
	var failed []int
	for _, r := range results {
		if r.Verdict == Passed {
			passed++
		} else if r.Verdict != Skipped {
			failed = append(failed, r.Test)
		}
	}
	correct := passed == len(results)
	reward := 0.0
	if correct {
		reward = envs.RewardSuccess
	}
	info[envs.InfoSuccess] = correct
	info["correct"] = correct
	info["passed"] = passed
	info["total"] = len(results)
	info["failed"] = failed
	info["tests"] = results
	return envs.Step{Obs: summary(results, passed), Reward: reward, Terminated: true, Info: info}, nil
}

// summary is the observation after the step: the count and the first
// failures.
func summary(results []TestResult, passed int) string {
	if passed == len(results) {
		return fmt.Sprintf("All %d tests passed.", len(results))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d of %d tests passed.", passed, len(results))
	shown := 0
	for _, r := range results {
		if r.Verdict == Passed || r.Verdict == Skipped {
			continue
		}
		if shown == 3 {
			b.WriteString("\n…")
			break
		}
		b.WriteString("\n" + r.String())
		shown++
	}
	return b.String()
}

// sampleBodies are the programs SampleAction draws from: valid Python
// that reads stdin and prints something, rarely the answer.
var sampleBodies = []string{
	"print(%d)",
	"import sys\nprint(len(sys.stdin.read().split()) + %d)",
	"import sys\nfor line in sys.stdin:\n    print(line.strip().upper())\nprint(%d)",
	"data = input().split()\nprint(' '.join(reversed(data)), %d)",
	"import sys\nnums = [int(x) for x in sys.stdin.read().split() if x.lstrip('-').isdigit()]\nprint(sum(nums) + %d)",
}

// SampleAction returns a response with a small random Python program in a
// ```python block (it always parses; it rarely solves the problem).
func (e *Env) SampleAction(r *rand.Rand) string {
	body := fmt.Sprintf(sampleBodies[r.IntN(len(sampleBodies))], r.IntN(10))
	prose := [...]string{"", "Here is my solution.\n", "Read the input and print the result:\n\n"}[r.IntN(3)]
	return prose + "```python\n" + body + "\n```"
}
