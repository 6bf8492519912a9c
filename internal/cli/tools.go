package cli

import (
	"fmt"

	"github.com/gemgo/gemgo/tools"
)

// ToolsUsage is the help text of the -tool flag of the commands that play
// envs (cmd/play, cmd/eval).
const ToolsUsage = "wrap the env with a tool: a name (python, search, mcp, python_tool, ...) or a YAML map such as '{name: search, topk: 2}' (repeatable)"

// Tools is a repeatable -tool flag: each use is read by tools.ParseSpec
// and appended.
type Tools []tools.Spec

// String counts the tools.
func (t *Tools) String() string { return fmt.Sprint(len(*t), " tools") }

// Set parses s and appends it.
func (t *Tools) Set(s string) error {
	spec, err := tools.ParseSpec(s)
	if err != nil {
		return err
	}
	*t = append(*t, spec)
	return nil
}
