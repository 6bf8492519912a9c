package envs

import "github.com/gemgo/gemgo/envs/code"

// registerCode registers the coding tasks (code:sample, code:jsonl).
func registerCode(r *Registry) error {
	return code.Register(r)
}
