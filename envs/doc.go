// Package envs is gemgo's gym of text environments for LLM agents, after
// GEM (arXiv 2510.01051) and shaped like Gymnasium: text in, text out.
//
// The contract (Env, Step, Info, Registry, ...) is defined in package
// envs/core and re-exported here under the same names, so that users write
// envs.Env and envs.Step. This package adds what is built on the contract:
//
//   - Builtins, the registry of every built-in env by GEM id;
//   - wrappers, each changing one thing and forwarding the rest (Unwrap,
//     SampleAction, Close): TimeLimit (a turn limit that truncates),
//     EpisodeStats (return, turns and success on the step that ends an
//     episode, read back with SummaryOf), and GEM's text observation
//     wrappers ObservationHistory and ActionObservationHistory;
//   - VectorEnv, which steps many envs concurrently with one autoreset
//     mode that loses nothing of a finished episode (see its docs), and
//     derives every episode's seed from one base seed (EpisodeSeed).
//
// Every built-in env passes the conformance suite envtest.CheckEnv.
//
//	reg := envs.Builtins()
//	env, err := reg.Make("game:GuessTheNumber-v0-easy", envs.With("style", "brief"))
//	obs, info, err := env.Reset(7)
//	st, err := env.Step(`\boxed{5}`)
package envs
