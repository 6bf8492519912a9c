package builtin

import (
	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/logic"
	"github.com/gemgo/gemgo/envs/mathtask"
	"github.com/gemgo/gemgo/envs/qa"
	"github.com/gemgo/gemgo/envs/rg"
)

// registerTasks registers the built-in single-turn task families: rg
// (procedural reasoning), math, qa and logic.
func registerTasks(r *envs.Registry) error {
	for _, reg := range []func(*envs.Registry) error{
		rg.Register,
		mathtask.Register,
		qa.Register,
		logic.Register,
	} {
		if err := reg(r); err != nil {
			return err
		}
	}
	return nil
}
