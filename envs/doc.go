// Package envs is gemgo's gym of text environments for LLM agents, after
// GEM (arXiv 2510.01051) and shaped like Gymnasium: text in, text out.
//
// The contract (Env, Step, Info, Registry, ...) is defined in package
// envs/core and re-exported here under the same names, so that users write
// envs.Env and envs.Step. This package adds what is built on the contract:
// the registry of built-in envs (Builtins), the wrappers (TimeLimit,
// EpisodeStats and the text observation wrappers) and VectorEnv, which steps
// many envs concurrently.
//
//	reg := envs.Builtins()
//	env, err := reg.Make("game:GuessTheNumber-v0-easy", envs.With("style", "brief"))
//	obs, info, err := env.Reset(7)
//	st, err := env.Step(`\boxed{5}`)
package envs
