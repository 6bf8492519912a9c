package mcptask_test

import (
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/builtin"
	"github.com/gemgo/gemgo/envs/mcptask"
)

const okFiles = "service: files\ninstruction: do it\nchecks: [{path: a, exists: true}]\nsolution: [{tool: write_file, arguments: {path: /files/a, content: x}}]\n"

// TestLoadTaskErrors: a bad task directory is refused with an error that
// names the problem.
func TestLoadTaskErrors(t *testing.T) {
	for _, c := range []struct {
		yaml  string
		files map[string]string
		want  string
	}{
		{okFiles, map[string]string{"files/x": "1"}, ""},
		{okFiles, nil, "files/ (the fixture tree, required for service files)"},
		{"service: web\ninstruction: x\n", nil, `service = "web": want files or postgres`},
		{"service: postgres\ninstruction: x\nchecks: [{sql: select true}]\nsolution: [{tool: query}]\n", nil, "read fixture.sql"},
		{"service: postgres\ninstruction: x\nchecks: [{sql: select true}]\nsolution: [{tool: query}]\n", map[string]string{"fixture.sql": "create table t(a int);"}, ""},
		{"service: postgres\ninstruction: x\nchecks: [{path: a, exists: true}]\nsolution: [{tool: query}]\n", map[string]string{"fixture.sql": ""}, "a postgres check is one sql query"},
		{"service: files\ninstruction: x\nchecks: [{sql: select true}]\nsolution: [{tool: t}]\n", map[string]string{"files/x": ""}, "sql checks are for service postgres"},
		{"service: files\ninstruction: ' '\nchecks: [{path: a, exists: true}]\nsolution: [{tool: t}]\n", map[string]string{"files/x": ""}, "instruction is empty"},
		{"service: files\ninstruction: x\nsolution: [{tool: t}]\n", map[string]string{"files/x": ""}, "checks is empty"},
		{"service: files\ninstruction: x\nchecks: [{path: a, exists: true}]\n", map[string]string{"files/x": ""}, "solution is empty"},
		{"service: files\ninstruction: x\nchecks: [{path: ../a, exists: true}]\nsolution: [{tool: t}]\n", map[string]string{"files/x": ""}, `path "../a": want a relative path inside the task's root`},
		{"service: files\ninstruction: x\nchecks: [{path: a}]\nsolution: [{tool: t}]\n", map[string]string{"files/x": ""}, "path a: give a condition"},
		{"service: files\ninstruction: x\nchecks: [{path: a, same_as: nope}]\nsolution: [{tool: t}]\n", map[string]string{"files/x": ""}, `same_as "nope": no such file in files/`},
		{"service: files\ninstruction: x\nchecks: [{path: a, matches: '('}]\nsolution: [{tool: t}]\n", map[string]string{"files/x": ""}, "matches: error parsing regexp"},
		{"service: files\ninstruction: x\nmax_turns: 0\nchecks: [{path: a, exists: true}]\nsolution: [{tool: t}]\nanswer: '<tool_call>'\n", map[string]string{"files/x": ""}, "answer holds <tool_call>"},
		{okFiles + "bogus: 1\n", map[string]string{"files/x": ""}, "field bogus not found"},
		{"service: files\ninstruction: x\ncall_timeout_sec: 9999\nchecks: [{path: a, exists: true}]\nsolution: [{tool: t}]\n", map[string]string{"files/x": ""}, "call_timeout_sec = 9999"},
	} {
		fsys := fstest.MapFS{"t/task.yaml": {Data: []byte(c.yaml)}}
		for name, data := range c.files {
			fsys["t/"+name] = &fstest.MapFile{Data: []byte(data)}
		}
		_, err := mcptask.LoadTask(fsys, "t")
		if c.want == "" {
			require.NoError(t, err, c.yaml)
		} else {
			require.ErrorContains(t, err, c.want, c.yaml)
		}
	}
}

// TestShippedTasks: at least 12 tasks per service, each with a solution.
func TestShippedTasks(t *testing.T) {
	for _, s := range []string{mcptask.ServiceFiles, mcptask.ServicePostgres} {
		tasks, err := mcptask.ShippedTasks(s)
		require.NoError(t, err)
		require.GreaterOrEqual(t, len(tasks), 12, s)
	}
}

// TestMissingServerNamesInstall: an id whose server is not installed
// fails at Make with the line that installs it.
func TestMissingServerNamesInstall(t *testing.T) {
	_, err := builtin.Registry().Make("mcp:files-sample", envs.With("server", "gemgo-no-such-mcp-server"))
	require.ErrorContains(t, err, `the filesystem MCP server "gemgo-no-such-mcp-server" is not installed (`+mcptask.FilesInstall)
	_, err = builtin.Registry().Make("mcp:files-sample", envs.With("task", "nope"))
	require.ErrorContains(t, err, `option task "nope": no such shipped task (tasks: archive-old, config-edit,`)
}
