// Package policy is gemgo's learner: a byte-fallback word tokenizer, a
// decoder-only transformer trained with Gorgonia (float32, Adam), an
// incremental KV-cache sampler over the same weights, a value network
// (critic) for PPO, format warm-up, and checkpoints.
//
// The policy reads a prompt (BOS, observation tokens, SEP) and writes a
// response (action tokens, EOS). Training takes per-token advantages and
// the sampling policy's log-probs and minimises the clipped surrogate of
// PPO, with optional entropy and KL terms; the algorithms in package algo
// decide the advantages.
package policy
