package toolflag

import (
	"fmt"

	"github.com/gemgo/gemgo/tools"
)

// Usage is the help text of the -tool flag.
const Usage = "wrap the env with a tool: a name (python, search, mcp, python_tool, ...) or a YAML map such as '{name: search, topk: 2}' (repeatable)"

// Specs is a repeatable -tool flag: each use is read by tools.ParseSpec
// and appended.
type Specs []tools.Spec

// String counts the tools.
func (t *Specs) String() string { return fmt.Sprint(len(*t), " tools") }

// Set parses s and appends it.
func (t *Specs) Set(s string) error {
	spec, err := tools.ParseSpec(s)
	if err != nil {
		return err
	}
	*t = append(*t, spec)
	return nil
}
