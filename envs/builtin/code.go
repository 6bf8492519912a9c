package builtin

import (
	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/code"
)

// registerCode registers the coding tasks (code:sample, code:jsonl).
func registerCode(r *envs.Registry) error {
	return code.Register(r)
}
