package envs

import "github.com/gemgo/gemgo/envs/core"

// The contract, re-exported from package core (see its docs).
type (
	// Env is a text environment; see core.Env.
	Env = core.Env
	// Step is the result of Env.Step; see core.Step.
	Step = core.Step
	// Info carries extra facts about a reset or a step; see core.Info.
	Info = core.Info
	// ActionSampler draws random valid actions; see core.ActionSampler.
	ActionSampler = core.ActionSampler
	// Registry makes envs by id; see core.Registry.
	Registry = core.Registry
	// Factory makes an env from its options; see core.Factory.
	Factory = core.Factory
	// Option is a named constructor option; see core.Option.
	Option = core.Option
	// Options is what a Factory reads its options from; see core.Options.
	Options = core.Options
)

// With returns the constructor option name = value.
func With(name string, value any) Option { return core.With(name, value) }

// FromMap turns a map of options (from a YAML config) into Options.
func FromMap(m map[string]any) []Option { return core.FromMap(m) }

// NewRegistry returns an empty registry.
func NewRegistry() *Registry { return core.NewRegistry() }
