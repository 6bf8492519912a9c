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
// Episodes are handed out as tickets: a seed and a group id. For GRPO,
// GroupSize tickets share a seed and a group (K episodes from the same
// initial state). Everything is deterministic for a given plan and RNG:
// seeds come from the plan, the policy samples in slot order, and results
// are gathered by slot index whatever order goroutines finish in.
package rollout
