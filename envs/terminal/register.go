package terminal

import (
	"embed"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/sandbox"
)

//go:embed all:tasks
var shipped embed.FS

// ShippedTasks returns the tasks shipped with gemgo (envs/terminal/tasks),
// sorted by name.
func ShippedTasks() ([]*Task, error) { return LoadTasks(shipped, "tasks") }

// Register adds the terminal envs to r: terminal:sample (the tasks shipped
// with gemgo; option task picks one) and terminal:dir (the task directory
// or directory of tasks at option path).
func Register(r *envs.Registry) error {
	if err := r.RegisterDesc("terminal:sample", "shell tasks shipped with gemgo, run in a sandboxed work dir, scored by hidden pytest tests", makeSample); err != nil {
		return err
	}
	return r.RegisterDesc("terminal:dir", "shell tasks from Terminal-Bench-like task directories (option path), run in a sandbox, scored by hidden tests", makeDir)
}

func makeSample(o *envs.Options) (envs.Env, error) {
	cfg := readConfig(o)
	name := o.Content().String("task", "") // one of the shipped tasks, by name
	if o.Err() != nil {
		return nil, nil // Make reports the option error
	}
	tasks, err := ShippedTasks()
	if err != nil {
		return nil, err
	}
	if name != "" {
		i := slices.IndexFunc(tasks, func(t *Task) bool { return t.Name == name })
		if i < 0 {
			names := make([]string, len(tasks))
			for j, t := range tasks {
				names[j] = t.Name
			}
			return nil, fmt.Errorf("terminal: option task %q: no such shipped task (tasks: %s)", name, strings.Join(names, ", "))
		}
		tasks = tasks[i : i+1]
	}
	return New(tasks, cfg)
}

func makeDir(o *envs.Options) (envs.Env, error) {
	cfg := readConfig(o)
	path := o.ServerOnly("names a directory on the server").String("path", "")
	if path == "" {
		o.Failf("option path is required: a task directory (task.yaml, solution.sh, tests/) or a directory of them")
	}
	if o.Err() != nil {
		return nil, nil // Make reports the option error
	}
	tasks, err := LoadDir(path)
	if err != nil {
		return nil, err
	}
	return New(tasks, cfg)
}

// The most a client of an env server may ask for (cmd/envserver
// -option-cap moves them): a turn cap, seconds a command, bytes of output
// an observation.
const (
	clientMaxTurns          = 100
	clientMaxCommandTimeout = 60
	clientMaxOutputBytes    = 64 << 10
)

// readConfig reads the options both ids share.
func readConfig(o *envs.Options) Config {
	var cfg Config
	cfg.MaxTurns = o.Resource(clientMaxTurns).Int("max_turns", 0, 0, 1000)
	cfg.CommandTimeout = time.Duration(o.Resource(clientMaxCommandTimeout).Float("command_timeout", 0, 0, 3600) * float64(time.Second))
	cfg.OutputBytes = o.Resource(clientMaxOutputBytes).Int("output_bytes", 4096, 256, 1<<20)
	cfg.Python = o.ServerOnly("names the program the server runs the tests with").String("python", sandbox.DefaultPython)
	cfg.Isolation = o.ServerOnly("weakens or chooses the sandbox the server runs commands in (none reaches the server's own network)").
		String("isolation", "auto", "auto", sandbox.NetBwrap, sandbox.NetNamespace, sandbox.NetUserNamespace, sandbox.NetNone)
	return cfg
}
