// Package eval scores policies on envs: a checkpoint (run in process by a
// chat.Engine), the env's random player, the env's solver (Oracles, where
// the env has one: envs.SolverOf), or any model behind an OpenAI-compatible endpoint. It is
// the library behind cmd/eval.
//
// An endpoint calls the env's tools in their text protocol (tags in the
// reply, as policies train) or, with Config.ToolProtocol native, through
// OpenAI function calling: the tools are offered as functions and each
// returned call is written in the text protocol and stepped through the
// same tool wrapper (native.go), its observation answered as a tool
// message.
//
// Every (policy, env, seed, sample) is one episode, played as a chat
// (see package chat) and written as one line of results.jsonl, fsynced,
// in the order episodes finish. A rerun with the same config reads the
// file and plays only the episodes that have no line without an error, so
// a killed run loses nothing that finished and repeats nothing. A
// checkpoint's lines carry the hash of its file's content, so a file
// replaced under the same path is played anew. One Run at a time writes a
// directory (it holds the directory's flock, internal/fslock). The
// metadata.json beside results.jsonl holds the resolved config, its hash,
// and the aggregates per policy × env: success rate and mean return with
// percentile-bootstrap 95% intervals, mean turns and tokens, and the
// unbiased pass@k of Chen et al. (2021), 1 − C(n−c, k)/C(n, k) for n
// samples per seed of which c succeed.
//
// Episodes run in goroutines, at most Config.Concurrency at once; each
// policy call of an episode is one chat request. A checkpoint's requests
// from concurrent episodes are batched into one sampler call by its
// Engine, as a served checkpoint's are. An error of a policy (a server
// that times out, answers 5xx after the retries, or sends garbage) ends
// that episode, recorded with the error; it does not stop the run.
package eval
