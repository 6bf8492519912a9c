package terminal

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/sandbox"
)

// Config is what an env is built from; zero fields take the task's value
// or the default.
type Config struct {
	// MaxTurns overrides every task's max_turns.
	MaxTurns int
	// CommandTimeout overrides every task's command_timeout_sec.
	CommandTimeout time.Duration
	// OutputBytes is the most command output an observation shows (head
	// and tail, with a marker between); default 4096.
	OutputBytes int
	// Isolation names the sandbox isolation: "auto" or "" (the strongest,
	// sandbox.Detect), or one of sandbox.Available's Network values.
	Isolation string
	// Python is the verifier's interpreter (default sandbox.DefaultPython,
	// resolved by sandbox.PythonFor); it must import pytest.
	Python string
}

// Env is a multi-turn terminal task: the agent runs shell commands in a
// sandboxed work dir, then a verifier it never saw scores the result.
type Env struct {
	tasks  []*Task
	cfg    Config
	iso    sandbox.Isolation
	note   string // Info["sandbox"]
	python string

	rng    *rand.Rand
	cur    *Task
	base   string // the episode's private dir, holding root
	root   string // the verifier's dir, holding work and, at the end, the tests
	work   string // the agent's work dir
	turn   int
	used   time.Duration // wall time of the episode's commands
	active bool
}

var (
	_ envs.Env           = (*Env)(nil)
	_ envs.ActionSampler = (*Env)(nil)
	_ envs.SolverMaker   = (*Env)(nil)
)

// New returns an env over tasks. It fails when tasks is empty, or when a
// pytest task's verifier could not run here (no bash, no python3 that
// imports pytest; the error says what to install).
func New(tasks []*Task, cfg Config) (*Env, error) {
	if len(tasks) == 0 {
		return nil, errors.New("terminal: no tasks: give at least one")
	}
	if cfg.OutputBytes <= 0 {
		cfg.OutputBytes = 4096
	}
	if cfg.Python == "" {
		cfg.Python = sandbox.DefaultPython
	}
	iso, err := sandbox.Pick(cfg.Isolation)
	if err != nil {
		return nil, fmt.Errorf("terminal: %w", err)
	}
	if err := iso.CanRun("bash"); err != nil {
		return nil, fmt.Errorf("terminal: commands run in bash: %w", err)
	}
	e := &Env{tasks: tasks, cfg: cfg, iso: iso, note: iso.String()}
	for _, t := range tasks {
		if t.RunTests {
			continue
		}
		py, note, err := pytestPython(cfg.Python, iso)
		if err != nil {
			return nil, err
		}
		e.python, e.note = py, e.note+"; "+note
		break
	}
	return e, nil
}

// pytestPython returns the verifier's interpreter: name as
// sandbox.PythonFor resolves it, or for the default name, where that one
// cannot import pytest, the first of sandbox.FallbackPythons that the
// isolation can run and that can.
func pytestPython(name string, iso sandbox.Isolation) (py, note string, err error) {
	py, note, err = sandbox.PythonFor(name, iso)
	if err != nil {
		return "", "", fmt.Errorf("terminal: the verifier runs pytest with Python 3: %w (option python)", err)
	}
	imports := func(p string) bool { return exec.Command(p, "-I", "-c", "import pytest").Run() == nil }
	if note == "" {
		note = "python: " + py
	}
	if imports(py) {
		return py, note, nil
	}
	if name == sandbox.DefaultPython {
		for _, f := range sandbox.FallbackPythons() {
			if p, _, err := sandbox.PythonFor(f, iso); err == nil && imports(p) {
				return p, "python: " + p + " (" + py + " cannot import pytest)", nil
			}
		}
	}
	return "", "", fmt.Errorf("terminal: %s: %w", py, errNoPytest)
}

// Tasks returns the env's tasks (not a copy: do not modify them).
func (e *Env) Tasks() []*Task { return e.tasks }

// Close removes the last episode's files.
func (e *Env) Close() error {
	e.active = false
	return e.removeEpisode()
}

func (e *Env) removeEpisode() error {
	if e.base == "" {
		return nil
	}
	err := os.RemoveAll(e.base)
	e.base, e.root, e.work = "", "", ""
	if err != nil {
		return fmt.Errorf("terminal: remove episode dir: %w", err)
	}
	return nil
}

func (e *Env) maxTurns() int {
	if e.cfg.MaxTurns > 0 {
		return e.cfg.MaxTurns
	}
	return e.cur.Spec.MaxTurns
}

func (e *Env) commandTimeout() time.Duration {
	if e.cfg.CommandTimeout > 0 {
		return e.cfg.CommandTimeout
	}
	return seconds(e.cur.Spec.CommandTimeoutSec)
}

// Reset picks a task with the env's own generator seeded by seed, lays out
// a fresh work dir (files/, then setup.sh run in the sandbox) and returns
// the instruction.
func (e *Env) Reset(seed uint64) (string, envs.Info, error) {
	e.active = false
	if err := e.removeEpisode(); err != nil {
		return "", nil, err
	}
	e.rng = rand.New(rand.NewPCG(seed, 0x7465726d)) // "term"
	e.cur = e.tasks[e.rng.IntN(len(e.tasks))]
	e.turn, e.used = 0, 0
	if err := e.layOut(); err != nil {
		return "", nil, err
	}
	e.active = true
	return e.prompt(), envs.Info{
		envs.InfoMaxTurns: e.maxTurns(),
		"task":            e.cur.Name,
		"sandbox":         e.note,
	}, nil
}

// layOut makes the episode's dirs: base (in the temp dir, private to this
// process but searchable, so that a run's uid reaches the rest), root in
// it (the verifier's working dir: a run's uid may own it, and the sandbox
// removes what a run's uid owns at the top of the temp dir), and work in
// root, the agent's.
func (e *Env) layOut() error {
	base, err := os.MkdirTemp("", fmt.Sprintf("gemgo-terminal-%d-", os.Getpid()))
	if err != nil {
		return fmt.Errorf("terminal: episode dir: %w", err)
	}
	e.base, e.root = base, filepath.Join(base, "episode")
	e.work = filepath.Join(e.root, "app")
	if err := os.Chmod(base, 0o711); err != nil {
		return fmt.Errorf("terminal: episode dir: %w", err)
	}
	for _, d := range []string{e.root, e.work} {
		if err := os.Mkdir(d, 0o755); err != nil {
			return fmt.Errorf("terminal: episode dir: %w", err)
		}
	}
	if err := writeTree(e.work, e.cur.Files); err != nil {
		return err
	}
	if e.cur.Setup == "" {
		return nil
	}
	lim := seconds(e.cur.Spec.MaxTestTimeoutSec)
	res, err := sandbox.RunWith(context.Background(), sandbox.Spec{
		Cmd:    []string{"bash", "-c", e.cur.Setup},
		Dir:    e.work,
		Limits: sandbox.Limits{Wall: lim, CPU: lim, MemoryBytes: 1 << 30, FileBytes: 64 << 20},
	}, e.iso)
	if err != nil {
		return fmt.Errorf("terminal: task %s: setup.sh: %w", e.cur.Name, err)
	}
	if !res.OK() {
		return fmt.Errorf("terminal: task %s: setup.sh failed (%s, exit code %d): %s", e.cur.Name, res.Status, res.ExitCode,
			truncate(strings.TrimSpace(string(res.Stderr)+"\n"+string(res.Stdout)), 600))
	}
	return nil
}

// prompt is the episode's first observation.
func (e *Env) prompt() string {
	return strings.TrimSpace(e.cur.Spec.Instruction) + fmt.Sprintf(`

You are in a Linux shell, in the task's working directory. Act with exactly one of these per reply:
<bash>COMMAND</bash> runs COMMAND with bash -c in the working directory and shows its output and exit code.
<finish></finish> ends the episode; your work is then checked by hidden tests.
Each command runs in a fresh shell: cd and exported variables do not carry over to the next command (use cd DIR && ... in one command). No network. A command may run for %s; you have %d actions and %s of command time in all.`,
		e.commandTimeout(), e.maxTurns(), seconds(e.cur.Spec.MaxAgentTimeoutSec))
}

// Step runs one action. Rewards are 0 until the episode ends: on <finish>
// (terminated) or at the turn cap or the episode's time budget (truncated),
// where the verifier's score is the reward.
func (e *Env) Step(text string) (envs.Step, error) {
	if !e.active {
		return envs.Step{}, envs.ErrNotReset
	}
	e.turn++
	info := envs.Info{envs.InfoTurn: e.turn, "task": e.cur.Name, "sandbox": e.note}
	a := parseAction(text)
	var obs string
	switch {
	case a.err != "":
		info[envs.InfoFormatError] = true
		obs = a.err
	case a.finish:
		return e.end(info, "You finished.", true)
	default:
		var err error
		if obs, err = e.run(a, info); err != nil {
			e.active = false
			return envs.Step{}, err
		}
	}
	budget := seconds(e.cur.Spec.MaxAgentTimeoutSec)
	switch {
	case e.turn >= e.maxTurns():
		info["truncated_by"] = "max_turns"
		return e.end(info, obs+"\n\nThat was your last action (the turn limit).", false)
	case e.used >= budget:
		info["truncated_by"] = "max_agent_timeout_sec"
		return e.end(info, obs+"\n\nThe episode's command time is used up.", false)
	}
	return envs.Step{Obs: obs, Info: info}, nil
}

// end runs the verifier and ends the episode.
func (e *Env) end(info envs.Info, obs string, terminated bool) (envs.Step, error) {
	e.active = false
	v, err := e.verify()
	if err != nil {
		return envs.Step{}, err
	}
	info["passed"], info["total"] = v.passed, v.total
	info["tests"] = v.tests
	info[envs.InfoSuccess] = v.err == "" && v.total > 0 && v.passed == v.total && v.reward == 1
	summary := fmt.Sprintf("%d of %d tests passed; reward %.3g.", v.passed, v.total, v.reward)
	if v.err != "" {
		info["verifier_error"] = v.err
		summary = "The tests could not score the work (" + v.err + "); reward 0."
		v.reward = 0
	}
	return envs.Step{Obs: obs + "\n" + summary, Reward: v.reward, Terminated: terminated, Truncated: !terminated, Info: info}, nil
}

// run runs one command in the work dir and describes what it did.
func (e *Env) run(a action, info envs.Info) (string, error) {
	timeout := e.commandTimeout()
	if a.timeout > 0 && a.timeout < timeout {
		timeout = a.timeout
	}
	if left := seconds(e.cur.Spec.MaxAgentTimeoutSec) - e.used; left < timeout {
		timeout = max(left, 100*time.Millisecond)
	}
	res, err := sandbox.RunWith(context.Background(), sandbox.Spec{
		// stderr joins stdout, in order, for all that the command runs.
		Cmd: []string{"bash", "-c", "exec 2>&1; " + a.cmd},
		Dir: e.work,
		Limits: sandbox.Limits{
			Wall: timeout, CPU: timeout,
			MemoryBytes: 1 << 30, OutputBytes: 1 << 20, FileBytes: 64 << 20,
		},
	}, e.iso)
	if err != nil {
		return "", fmt.Errorf("terminal: task %s: run a command: %w", e.cur.Name, err)
	}
	e.used += res.Wall
	info["exit_code"] = res.ExitCode
	info["status"] = string(res.Status)
	out := strings.ReplaceAll(string(res.Stdout)+string(res.Stderr), res.Dir, ".")
	var b strings.Builder
	b.WriteString("<bash_output>\n")
	b.WriteString(headTail(strings.ToValidUTF8(out, "\uFFFD"), e.cfg.OutputBytes))
	b.WriteString("\n</bash_output>\n")
	switch res.Status {
	case sandbox.StatusTimeout, sandbox.StatusCPULimit:
		fmt.Fprintf(&b, "Timed out after %s: the command and every process it started were killed.", timeout)
	case sandbox.StatusOutputLimit:
		b.WriteString("Stopped: the command wrote more than 1 MiB of output.")
	case sandbox.StatusMemoryLimit:
		fmt.Fprintf(&b, "Exit code %d (out of memory: the limit is 1 GiB).", res.ExitCode)
	default:
		if res.Signal != "" {
			fmt.Fprintf(&b, "Killed by signal %s.", res.Signal)
		} else {
			fmt.Fprintf(&b, "Exit code %d.", res.ExitCode)
		}
	}
	if changesShell(a.cmd) {
		b.WriteString(" Note: cd and export last only for this command; the next one starts in the working directory again.")
	}
	return b.String(), nil
}

// changesShell reports whether cmd starts with cd or export, whose effect
// ends with the command.
func changesShell(cmd string) bool {
	return strings.HasPrefix(cmd, "cd ") || strings.HasPrefix(cmd, "export ") || cmd == "cd"
}

// headTail keeps at most budget bytes of s: its head and its tail, with a
// marker saying how much was cut between them.
func headTail(s string, budget int) string {
	if len(s) <= budget {
		return s
	}
	head := truncate(s, budget/2)
	head = strings.TrimSuffix(head, "…")
	n := len(s) - budget/2
	for n < len(s) && !utf8Start(s[n]) {
		n++
	}
	tail := s[n:]
	return fmt.Sprintf("%s\n[... %d bytes cut ...]\n%s", head, len(s)-len(head)-len(tail), tail)
}

// sampleCommands are the commands SampleAction draws from: harmless,
// plausible, and with output that depends only on the work dir's files.
var sampleCommands = []string{
	"ls", "ls -A", "find . -maxdepth 2 | sort", "wc -c $(find . -maxdepth 1 -type f | sort) 2>/dev/null | tail -n 3",
	"head -n 5 $(find . -maxdepth 1 -type f | sort | head -n 1)", "grep -rn TODO . | head -n 5", "cat README* 2>/dev/null | head -n 10",
	"test -d .git && git status --short | head", "true", "false",
}

// SampleAction returns a random plausible command, or <finish> (1 in 11).
func (e *Env) SampleAction(r *rand.Rand) string {
	i := r.IntN(len(sampleCommands) + 1)
	if i == len(sampleCommands) {
		return "<finish></finish>"
	}
	return "<bash>" + sampleCommands[i] + "</bash>"
}

// NewSolver returns the solver of the episode e was last reset to: it
// replays the task's reference solution (SolutionActions), which is how
// cmd/eval's oracle plays a terminal task.
func (e *Env) NewSolver() envs.Solver { return NewSolver(e) }

// Solver replays a task's reference solution, one action a turn.
type Solver struct{ actions []string }

// NewSolver returns the solver of e's current episode.
func NewSolver(e *Env) *Solver { return &Solver{actions: e.SolutionActions()} }

// Act returns the next action of the reference solution; it fails once
// they are all played (the episode should have ended on <finish>).
func (s *Solver) Act(string) (string, error) {
	if len(s.actions) == 0 {
		return "", errors.New("terminal: the reference solution has no more actions (it ended with <finish>)")
	}
	a := s.actions[0]
	s.actions = s.actions[1:]
	return a, nil
}

// SolutionActions returns the reference solution of the current episode's
// task as actions: solution.sh as one command, then <finish>. It is nil
// before the first Reset.
func (e *Env) SolutionActions() []string {
	if e.cur == nil {
		return nil
	}
	return []string{"<bash>" + e.cur.Solution + "</bash>", "<finish></finish>"}
}
