// Package core holds the environment contract of gemgo: the Env interface,
// the Step it returns, the Registry that makes envs by their GEM ids, and the
// small helpers every text game shares (reading the action from the last
// \boxed{...}, the standard rewards).
//
// Users normally import package envs, which re-exports these names
// (envs.Env, envs.Step, envs.Registry, ...) and adds wrappers, the vector env
// and the registry of built-in envs. Env implementations import core so that
// envs can import them without an import cycle.
package core
