// Package rollout plays episodes of text envs with a policy and stores them
// in a buffer as turn-level transitions.
//
// A Collector keeps a fixed number of env slots busy. At each tick a
// batcher gathers the pending observations of every active slot and asks
// the policy for all actions in one batched call (so a transformer samples
// them together with its KV cache); the slots then step their envs
// concurrently. A finished episode goes to the buffer whole, with its
// final reward and statistics, and its slot starts the next episode.
//
// The slots are the envs of an envs.VectorEnv, gemgo's one vector runner,
// in its AutoresetDisabled mode (Gymnasium's DISABLED): the VectorEnv owns
// the worker pool (VectorConfig.Workers, GOMAXPROCS goroutines by default),
// the per-env bookkeeping and the recovery of an env's panic, which
// becomes an error naming the slot and the seed instead of a crash of the
// trainer; the collector owns what only it knows, which slot plays which
// episode. It resets the free slots with VectorEnv.ResetSome and the seeds
// of its plan rather than letting the VectorEnv autoreset, because a
// group's episodes must share one seed and a budget of steps decides how
// many episodes start: both are per call, not per env.
//
// Episodes are handed out as tickets: a seed and a group id. For GRPO,
// GroupSize tickets share a seed and a group (K episodes from the same
// initial state). Everything is deterministic for a given plan and RNG:
// seeds come from the plan (SeedSequence derives them with
// envs.EpisodeSeed), the policy samples in slot order, and results are
// gathered by slot index whatever order goroutines finish in.
package rollout
