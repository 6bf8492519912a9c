package terminal

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// Spec is a task's task.yaml. Terminal-Bench's own fields (author_name,
// difficulty, category, tags, parser_name, ...) are accepted and, but for
// the limits, only recorded; any other key is an error.
type Spec struct {
	// Instruction is what the agent is asked to do (required).
	Instruction string `yaml:"instruction"`
	// MaxTurns caps the agent's actions (default 30); the env option
	// max_turns overrides it.
	MaxTurns int `yaml:"max_turns"`
	// CommandTimeoutSec is each command's wall-clock (and CPU) limit, and
	// the most a GEM-style timeout_secs may ask for (default 30).
	CommandTimeoutSec float64 `yaml:"command_timeout_sec"`
	// MaxAgentTimeoutSec is the episode's budget: the total wall time of
	// its commands (default 360, Terminal-Bench's).
	MaxAgentTimeoutSec float64 `yaml:"max_agent_timeout_sec"`
	// MaxTestTimeoutSec bounds setup.sh and the verifier (default 60).
	MaxTestTimeoutSec float64 `yaml:"max_test_timeout_sec"`
	// TestWeights weighs tests by function name (test_ prefix included);
	// a test not listed weighs 0. Empty: every test weighs 1.
	TestWeights map[string]float64 `yaml:"test_weights"`

	AuthorName            string   `yaml:"author_name"`
	AuthorEmail           string   `yaml:"author_email"`
	Difficulty            string   `yaml:"difficulty"`
	Category              string   `yaml:"category"`
	Tags                  []string `yaml:"tags"`
	ParserName            string   `yaml:"parser_name"`
	RunTestsInSameShell   bool     `yaml:"run_tests_in_same_shell"`
	DisableAsciinema      bool     `yaml:"disable_asciinema"`
	EstimatedDurationSec  float64  `yaml:"estimated_duration_sec"`
	ExpertTimeEstimateMin float64  `yaml:"expert_time_estimate_min"`
	JuniorTimeEstimateMin float64  `yaml:"junior_time_estimate_min"`
}

// Task is one loaded task directory. Everything is read into memory at
// load: later changes to the directory (by anyone) do not reach episodes.
type Task struct {
	// Name is the directory's base name.
	Name string
	Spec Spec
	// Files is the files/ tree, copied into the work dir at Reset (name
	// relative to files/, slash-separated).
	Files map[string]File
	// Setup is setup.sh, run in the work dir before the episode ("": none).
	Setup string
	// Solution is solution.sh, the reference solution.
	Solution string
	// Tests is the tests/ tree, shown to the verifier only.
	Tests map[string]File
	// RunTests is true when tests/run-tests.sh exists: the verifier runs
	// it and reads the reward file it writes, instead of pytest.
	RunTests bool
}

// File is a file of a task: its bytes and whether it is executable.
type File struct {
	Data []byte
	Exec bool
}

var taskName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]*$`)

// LoadTask reads the task directory dir of fsys.
func LoadTask(fsys fs.FS, dir string) (*Task, error) {
	t := &Task{Name: path.Base(dir), Files: map[string]File{}, Tests: map[string]File{}}
	fail := func(format string, args ...any) (*Task, error) {
		return nil, fmt.Errorf("terminal: task %s: %s", dir, fmt.Sprintf(format, args...))
	}
	if !taskName.MatchString(t.Name) {
		return fail("the directory name must be letters, digits, '_', '.' or '-'")
	}
	raw, err := fs.ReadFile(fsys, path.Join(dir, "task.yaml"))
	if err != nil {
		return fail("read task.yaml: %v", err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(raw))
	dec.KnownFields(true)
	if err := dec.Decode(&t.Spec); err != nil {
		return fail("task.yaml: %v (fields: instruction, max_turns, command_timeout_sec, max_agent_timeout_sec, max_test_timeout_sec, test_weights, and Terminal-Bench's descriptive ones)", err)
	}
	if s, err := fs.ReadFile(fsys, path.Join(dir, "setup.sh")); err == nil {
		t.Setup = string(s)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fail("read setup.sh: %v", err)
	}
	s, err := fs.ReadFile(fsys, path.Join(dir, "solution.sh"))
	if err != nil {
		return fail("read solution.sh (the reference solution, required): %v", err)
	}
	t.Solution = string(s)
	if err := readTree(fsys, path.Join(dir, "files"), t.Files); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fail("files/: %v", err)
	}
	if err := readTree(fsys, path.Join(dir, "tests"), t.Tests); err != nil {
		return fail("tests/ (required: pytest files or run-tests.sh): %v", err)
	}
	_, t.RunTests = t.Tests["run-tests.sh"]
	if err := t.validate(); err != nil {
		return fail("%v", err)
	}
	return t, nil
}

// readTree reads every regular file under root into out.
func readTree(fsys fs.FS, root string, out map[string]File) error {
	if _, err := fs.Stat(fsys, root); err != nil {
		return err
	}
	return fs.WalkDir(fsys, root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if !d.Type().IsRegular() {
			return fmt.Errorf("%s: only regular files and directories are allowed", p)
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		out[strings.TrimPrefix(p, root+"/")] = File{Data: data, Exec: fi.Mode().Perm()&0o111 != 0}
		return nil
	})
}

// validate checks the spec's values and fills in the defaults.
func (t *Task) validate() error {
	sp := &t.Spec
	if strings.TrimSpace(sp.Instruction) == "" {
		return errors.New("task.yaml: instruction is empty: say what the agent must do")
	}
	def := func(v *float64, d float64, name string, hi float64) error {
		if *v == 0 {
			*v = d
		}
		if *v < 0.1 || *v > hi {
			return fmt.Errorf("task.yaml: %s = %g: want 0.1 to %g seconds", name, *v, hi)
		}
		return nil
	}
	if err := errors.Join(
		def(&sp.CommandTimeoutSec, 30, "command_timeout_sec", 3600),
		def(&sp.MaxAgentTimeoutSec, 360, "max_agent_timeout_sec", 86400),
		def(&sp.MaxTestTimeoutSec, 60, "max_test_timeout_sec", 3600),
	); err != nil {
		return err
	}
	if sp.MaxTurns == 0 {
		sp.MaxTurns = 30
	}
	if sp.MaxTurns < 1 || sp.MaxTurns > 1000 {
		return fmt.Errorf("task.yaml: max_turns = %d: want 1 to 1000", sp.MaxTurns)
	}
	if t.RunTests {
		if len(sp.TestWeights) > 0 {
			return errors.New("task.yaml: test_weights needs pytest tests; run-tests.sh writes its reward itself")
		}
		return nil
	}
	var py []string
	for name := range t.Tests {
		if strings.HasSuffix(name, ".py") {
			py = append(py, name)
		}
	}
	if len(py) == 0 {
		return errors.New("tests/ holds no .py file and no run-tests.sh: add pytest tests (test_*.py)")
	}
	if len(sp.TestWeights) == 0 {
		return nil
	}
	positive := false
	var names []string
	for name, w := range sp.TestWeights {
		names = append(names, name)
		if w < 0 {
			return fmt.Errorf("task.yaml: test_weights[%s] = %g: want >= 0", name, w)
		}
		positive = positive || w > 0
		found := false
		for _, f := range py {
			found = found || bytes.Contains(t.Tests[f].Data, []byte("def "+name+"("))
		}
		if !found {
			return fmt.Errorf("task.yaml: test_weights names %s, which no test file defines (keys are test function names, test_ prefix included)", name)
		}
	}
	if !positive {
		slices.Sort(names)
		return fmt.Errorf("task.yaml: test_weights (%s) gives no test a weight > 0", strings.Join(names, ", "))
	}
	return nil
}

// LoadTasks reads the tasks under root of fsys: root itself when it holds
// a task.yaml, else every subdirectory that does (sorted by name).
func LoadTasks(fsys fs.FS, root string) ([]*Task, error) {
	if _, err := fs.Stat(fsys, path.Join(root, "task.yaml")); err == nil {
		t, err := LoadTask(fsys, root)
		if err != nil {
			return nil, err
		}
		return []*Task{t}, nil
	}
	ents, err := fs.ReadDir(fsys, root)
	if err != nil {
		return nil, fmt.Errorf("terminal: read tasks: %w", err)
	}
	var tasks []*Task
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		if _, err := fs.Stat(fsys, path.Join(root, e.Name(), "task.yaml")); err != nil {
			continue
		}
		t, err := LoadTask(fsys, path.Join(root, e.Name()))
		if err != nil {
			return nil, err
		}
		tasks = append(tasks, t)
	}
	if len(tasks) == 0 {
		return nil, fmt.Errorf("terminal: no task found in %s: give a task directory (with task.yaml) or a directory of them", root)
	}
	return tasks, nil
}

// LoadDir reads the task directory, or directory of task directories, at
// dir on disk.
func LoadDir(dir string) ([]*Task, error) {
	fi, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("terminal: option path: %w", err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("terminal: option path %s is not a directory: give a task directory (with task.yaml) or a directory of them", dir)
	}
	if _, err := os.Stat(filepath.Join(dir, "task.yaml")); err == nil {
		abs, err := filepath.Abs(dir)
		if err != nil {
			return nil, fmt.Errorf("terminal: option path: %w", err)
		}
		t, err := LoadTask(os.DirFS(filepath.Dir(abs)), filepath.Base(abs))
		if err != nil {
			return nil, err
		}
		return []*Task{t}, nil
	}
	return LoadTasks(os.DirFS(dir), ".")
}
