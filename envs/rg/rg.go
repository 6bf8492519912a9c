package rg

import (
	"fmt"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/task"
)

// spec is one reasoning task.
type spec struct {
	name string // id is "rg:" + name
	desc string // one line: what is asked, how it is scored, its knobs
	hint string // answer form for gem-style instructions
	// build reads the task's knobs from o and returns its generator.
	build func(o *envs.Options) task.Generator
}

// specs lists every task, in id order of their files.
func specs() []spec {
	var all []spec
	all = append(all, arithSpecs()...)
	all = append(all, numberSpecs()...)
	all = append(all, textSpecs()...)
	all = append(all, listSpecs()...)
	all = append(all, timeSpecs()...)
	return all
}

// IDs returns the env ids of every rg task, in registration order.
func IDs() []string {
	var ids []string
	for _, s := range specs() {
		ids = append(ids, "rg:"+s.name)
	}
	return ids
}

// Register adds every rg task to r.
func Register(r *envs.Registry) error {
	for _, s := range specs() {
		s := s
		err := r.RegisterDesc("rg:"+s.name, s.desc, func(o *envs.Options) (envs.Env, error) {
			style, penalty := task.ReadCommon(o)
			gen := s.build(o)
			return task.New(task.Config{
				Description:   s.desc,
				Generate:      gen,
				Style:         style,
				FormatPenalty: penalty,
				Hint:          s.hint,
			})
		})
		if err != nil {
			return fmt.Errorf("rg: %w", err)
		}
	}
	return nil
}
