// Package policy is gemgo's learner: a byte-fallback word tokenizer, a
// decoder-only transformer trained with Gorgonia (float32, Adam), an
// incremental KV-cache sampler over the same weights, a value network
// (critic) for PPO, format warm-up, and checkpoints.
//
// The policy reads a prompt (BOS, observation tokens, SEP) and writes a
// response (action tokens, EOS). Training minimises an Objective given
// token by token: the trainer's loss head computes each response token's
// log-prob and the entropy at its position, the objective (package algo's
// Loss: the clipped surrogate of PPO with optional entropy and KL terms)
// turns them into a loss and its derivatives, and the head carries those
// into the logits. The algorithms in package algo decide the advantages
// and the loss.
package policy
