package mcptask

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"gopkg.in/yaml.v3"
)

// Services of a task (Spec.Service).
const (
	// ServiceFiles: the npm filesystem MCP server on a copy of files/.
	ServiceFiles = "files"
	// ServicePostgres: gemgo's PostgreSQL MCP server on a fresh database
	// made from fixture.sql.
	ServicePostgres = "postgres"
)

// Spec is a task's task.yaml; an unknown key is an error.
type Spec struct {
	// Service is files or postgres (required).
	Service string `yaml:"service"`
	// Instruction is what the agent is asked to do (required).
	Instruction string `yaml:"instruction"`
	// MaxTurns caps the agent's replies (default 30); option max_turns
	// overrides it.
	MaxTurns int `yaml:"max_turns"`
	// CallTimeoutSec bounds one tool call (default 30).
	CallTimeoutSec float64 `yaml:"call_timeout_sec"`
	// TimeBudgetSec is the episode's budget: the total wall time of its
	// tool calls (default 300).
	TimeBudgetSec float64 `yaml:"time_budget_sec"`
	// Checks are the verifier: every one must hold (required, at least one).
	Checks []Check `yaml:"checks"`
	// Solution is the reference solution: the tool calls, in order.
	Solution []Call `yaml:"solution"`
	// Answer is the reference solution's final answer (default "Done.").
	Answer string `yaml:"answer"`

	Difficulty string   `yaml:"difficulty"`
	Category   string   `yaml:"category"`
	Tags       []string `yaml:"tags"`
}

// Call is one tool call of a reference solution.
type Call struct {
	Tool      string         `yaml:"tool"`
	Arguments map[string]any `yaml:"arguments"`
}

// Check is one condition on the state the agent left. A files check names
// a path (relative to the task's root) and one or more conditions on it;
// a postgres check is one SQL query that must return a single row with a
// single true value.
type Check struct {
	// Name labels the check in Info (default: its path or its SQL).
	Name string `yaml:"name"`

	// Path is the file or directory checked (files).
	Path string `yaml:"path"`
	// Exists: the path exists (true) or does not (false).
	Exists *bool `yaml:"exists"`
	// Dir: the path is a directory.
	Dir bool `yaml:"dir"`
	// Equals: the file's content is exactly this.
	Equals *string `yaml:"equals"`
	// Contains and NotContains: substrings the file holds, or must not.
	Contains    []string `yaml:"contains"`
	NotContains []string `yaml:"not_contains"`
	// Matches: a regular expression (RE2) the content matches.
	Matches string `yaml:"matches"`
	// Lines: the file's lines, in this order (a final newline is ignored).
	Lines []string `yaml:"lines"`
	// JSON: the file parses as JSON equal to this value.
	JSON any `yaml:"json"`
	// SameAs: the content equals the fixture's file at this path.
	SameAs string `yaml:"same_as"`
	// Entries: the directory holds exactly these names (sorted).
	Entries []string `yaml:"entries"`

	// SQL is a query returning one boolean (postgres).
	SQL string `yaml:"sql"`
}

// label is the check's name in Info.
func (c Check) label() string {
	switch {
	case c.Name != "":
		return c.Name
	case c.SQL != "":
		return strings.Join(strings.Fields(c.SQL), " ")
	}
	return c.Path
}

// Task is one loaded task directory, read wholly into memory at load:
// later changes to the directory do not reach episodes, and nothing of
// it but the fixture is ever placed where the agent's tools reach.
type Task struct {
	// Name is the directory's base name.
	Name string
	Spec Spec
	// Files is the files/ tree (files tasks), by slash-separated path.
	Files map[string][]byte
	// Dirs are the files/ tree's directories, empty ones included.
	Dirs []string
	// Fixture is fixture.sql (postgres tasks).
	Fixture string
}

var taskName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]*$`)

// LoadTask reads the task directory dir of fsys.
func LoadTask(fsys fs.FS, dir string) (*Task, error) {
	t := &Task{Name: path.Base(dir), Files: map[string][]byte{}}
	fail := func(format string, args ...any) (*Task, error) {
		return nil, fmt.Errorf("mcp task %s: %s", dir, fmt.Sprintf(format, args...))
	}
	if dir == "." {
		t.Name = "task"
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
		return fail("task.yaml: %v (fields: service, instruction, max_turns, call_timeout_sec, time_budget_sec, checks, solution, answer, difficulty, category, tags)", err)
	}
	switch t.Spec.Service {
	case ServiceFiles:
		if err := readTree(fsys, path.Join(dir, "files"), t); err != nil {
			return fail("files/ (the fixture tree, required for service files): %v", err)
		}
	case ServicePostgres:
		sql, err := fs.ReadFile(fsys, path.Join(dir, "fixture.sql"))
		if err != nil {
			return fail("read fixture.sql (the database's initial state, required for service postgres): %v", err)
		}
		t.Fixture = string(sql)
	default:
		return fail("task.yaml: service = %q: want %s or %s", t.Spec.Service, ServiceFiles, ServicePostgres)
	}
	if err := t.validate(); err != nil {
		return fail("task.yaml: %v", err)
	}
	return t, nil
}

// readTree reads the regular files and directories under root into t.
func readTree(fsys fs.FS, root string, t *Task) error {
	if _, err := fs.Stat(fsys, root); err != nil {
		return err
	}
	return fs.WalkDir(fsys, root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == root {
			return err
		}
		rel := strings.TrimPrefix(p, root+"/")
		if d.IsDir() {
			t.Dirs = append(t.Dirs, rel)
			return nil
		}
		if !d.Type().IsRegular() {
			return fmt.Errorf("%s: only regular files and directories are allowed", p)
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		t.Files[rel] = data
		return nil
	})
}

// validate checks the spec and fills in the defaults.
func (t *Task) validate() error {
	sp := &t.Spec
	if strings.TrimSpace(sp.Instruction) == "" {
		return errors.New("instruction is empty: say what the agent must do")
	}
	def := func(v *float64, d float64, name string, hi float64) error {
		if *v == 0 {
			*v = d
		}
		if *v < 0.1 || *v > hi {
			return fmt.Errorf("%s = %g: want 0.1 to %g seconds", name, *v, hi)
		}
		return nil
	}
	if err := errors.Join(def(&sp.CallTimeoutSec, 30, "call_timeout_sec", 600), def(&sp.TimeBudgetSec, 300, "time_budget_sec", 86400)); err != nil {
		return err
	}
	if sp.MaxTurns == 0 {
		sp.MaxTurns = 30
	}
	if sp.MaxTurns < 1 || sp.MaxTurns > 1000 {
		return fmt.Errorf("max_turns = %d: want 1 to 1000", sp.MaxTurns)
	}
	if sp.Answer == "" {
		sp.Answer = "Done."
	}
	if strings.Contains(sp.Answer, "<tool_call>") {
		return errors.New("answer holds <tool_call>: the final answer is a reply without a tool call")
	}
	if len(sp.Checks) == 0 {
		return errors.New("checks is empty: give at least one condition the final state must meet")
	}
	if len(sp.Solution) == 0 {
		return errors.New("solution is empty: give the reference solution's tool calls")
	}
	for i, c := range sp.Solution {
		if c.Tool == "" {
			return fmt.Errorf("solution[%d]: tool is empty", i)
		}
		if _, err := json.Marshal(c.Arguments); err != nil {
			return fmt.Errorf("solution[%d] (%s): arguments: %v", i, c.Tool, err)
		}
	}
	for i := range sp.Checks {
		if err := t.validateCheck(&sp.Checks[i]); err != nil {
			return fmt.Errorf("checks[%d]: %v", i, err)
		}
	}
	return nil
}

func (t *Task) validateCheck(c *Check) error {
	files := c.Path != "" || c.Exists != nil || c.Dir || c.Equals != nil || len(c.Contains) > 0 || len(c.NotContains) > 0 ||
		c.Matches != "" || len(c.Lines) > 0 || c.JSON != nil || c.SameAs != "" || len(c.Entries) > 0
	if t.Spec.Service == ServicePostgres {
		if files || strings.TrimSpace(c.SQL) == "" {
			return errors.New("a postgres check is one sql query (that returns one true value), nothing else")
		}
		return nil
	}
	if c.SQL != "" {
		return errors.New("sql checks are for service postgres; a files check names a path")
	}
	if c.Path == "" || !filepath.IsLocal(filepath.FromSlash(c.Path)) && c.Path != "." {
		return fmt.Errorf("path %q: want a relative path inside the task's root", c.Path)
	}
	if c.Matches != "" {
		if _, err := regexp.Compile(c.Matches); err != nil {
			return fmt.Errorf("matches: %v", err)
		}
	}
	if c.SameAs != "" {
		if _, ok := t.Files[c.SameAs]; !ok {
			return fmt.Errorf("same_as %q: no such file in files/", c.SameAs)
		}
	}
	if !files || c.Path != "" && c.Exists == nil && !c.Dir && c.Equals == nil && len(c.Contains) == 0 && len(c.NotContains) == 0 &&
		c.Matches == "" && len(c.Lines) == 0 && c.JSON == nil && c.SameAs == "" && len(c.Entries) == 0 {
		return fmt.Errorf("path %s: give a condition (exists, dir, equals, contains, not_contains, matches, lines, json, same_as, entries)", c.Path)
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
		return nil, fmt.Errorf("mcp tasks: %w", err)
	}
	var tasks []*Task
	for _, e := range ents {
		if _, err := fs.Stat(fsys, path.Join(root, e.Name(), "task.yaml")); !e.IsDir() || err != nil {
			continue
		}
		t, err := LoadTask(fsys, path.Join(root, e.Name()))
		if err != nil {
			return nil, err
		}
		tasks = append(tasks, t)
	}
	if len(tasks) == 0 {
		return nil, fmt.Errorf("mcp tasks: no task found in %s: give a task directory (with task.yaml) or a directory of them", root)
	}
	return tasks, nil
}

// LoadDir reads the task directory, or directory of task directories, at
// dir on disk.
func LoadDir(dir string) ([]*Task, error) {
	fi, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("mcp tasks: option path: %w", err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("mcp tasks: option path %s is not a directory: give a task directory (with task.yaml) or a directory of them", dir)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("mcp tasks: option path: %w", err)
	}
	if _, err := os.Stat(filepath.Join(abs, "task.yaml")); err == nil {
		return LoadTasks(os.DirFS(filepath.Dir(abs)), filepath.Base(abs))
	}
	return LoadTasks(os.DirFS(abs), ".")
}
