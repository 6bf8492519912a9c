package mcptask

import (
	"embed"
	"fmt"
	"slices"
	"strings"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/sandbox"
)

//go:embed all:tasks
var shipped embed.FS

// ShippedTasks returns the tasks of service shipped with gemgo
// (envs/mcptask/tasks/<service>), sorted by name.
func ShippedTasks(service string) ([]*Task, error) { return LoadTasks(shipped, "tasks/"+service) }

// Register adds the mcp envs to r: mcp:files-sample and
// mcp:postgres-sample (the tasks shipped with gemgo; option task picks
// one) and mcp:dir (the task directory, or directory of tasks of one
// service, at option path).
func Register(r *envs.Registry) error {
	if err := r.RegisterDesc("mcp:files-sample", "MCPMark-style file tasks shipped with gemgo: the npm filesystem MCP server in the sandbox on a fresh copy of the task's files, scored by checks of the files left", makeSample(ServiceFiles)); err != nil {
		return err
	}
	if err := r.RegisterDesc("mcp:postgres-sample", "MCPMark-style PostgreSQL tasks shipped with gemgo: gemgo's SQL MCP server on a fresh database of a throwaway cluster, scored by SQL checks", makeSample(ServicePostgres)); err != nil {
		return err
	}
	return r.RegisterDesc("mcp:dir", "MCPMark-style tasks from task directories (option path; files or postgres), scored by checks of the state left", makeDir)
}

// The most a client of an env server may ask for: a turn cap and bytes of
// a tool result in an observation.
const (
	clientMaxTurns       = 100
	clientMaxOutputBytes = 64 << 10
)

// options are the options every id reads.
type options struct {
	cfg       Config
	server    string
	isolation string
}

// readOptions reads the options of an id; files: it may serve files
// tasks, and reads the options of the filesystem server too.
func readOptions(o *envs.Options, files bool) options {
	var op options
	op.cfg.MaxTurns = o.Resource(clientMaxTurns).Int("max_turns", 0, 0, 1000)
	op.cfg.OutputBytes = o.Resource(clientMaxOutputBytes).Int("output_bytes", 8192, 256, 1<<20)
	if !files {
		return op
	}
	op.server = o.ServerOnly("names the program the server starts as the filesystem MCP server").String("server", DefaultFilesServer)
	op.isolation = o.ServerOnly("weakens or chooses the sandbox the server runs the filesystem server in (none reaches the server's own network)").
		String("isolation", "auto", "auto", sandbox.NetBwrap, sandbox.NetNamespace, sandbox.NetUserNamespace, sandbox.NetNone)
	return op
}

func makeSample(service string) envs.Factory {
	return func(o *envs.Options) (envs.Env, error) {
		op := readOptions(o, service == ServiceFiles)
		name := o.Content().String("task", "") // one of the shipped tasks, by name
		if o.Err() != nil {
			return nil, nil // Make reports the option error
		}
		tasks, err := ShippedTasks(service)
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
				return nil, fmt.Errorf("mcp:%s-sample: option task %q: no such shipped task (tasks: %s)", service, name, strings.Join(names, ", "))
			}
			tasks = tasks[i : i+1]
		}
		return build(tasks, op)
	}
}

func makeDir(o *envs.Options) (envs.Env, error) {
	op := readOptions(o, true)
	path := o.ServerOnly("names a directory on the server").String("path", "")
	if path == "" {
		o.Failf("option path is required: a task directory (task.yaml with the service, the checks and the solution; files/ or fixture.sql) or a directory of them")
	}
	if o.Err() != nil {
		return nil, nil // Make reports the option error
	}
	tasks, err := LoadDir(path)
	if err != nil {
		return nil, err
	}
	return build(tasks, op)
}

// build makes the env of tasks' service.
func build(tasks []*Task, op options) (envs.Env, error) {
	service := tasks[0].Spec.Service
	var b backend
	switch service {
	case ServiceFiles:
		iso, err := sandbox.Pick(op.isolation)
		if err != nil {
			return nil, fmt.Errorf("mcp:files: %w", err)
		}
		fb, err := newFilesBackend(op.server, iso)
		if err != nil {
			return nil, err
		}
		b = fb
	case ServicePostgres:
		pb, err := newPostgresBackend()
		if err != nil {
			return nil, err
		}
		b = pb
	}
	e, err := newEnv(tasks, op.cfg, service, b)
	if err != nil {
		_ = b.close()
		return nil, err
	}
	return e, nil
}
