// Package buffer stores the turn-level transitions of finished episodes for
// one on-policy update: one transition per env turn (the prompt the policy
// read, the response it wrote, the sampling log-probs, the reward, the end
// flags and the critic's value), grouped by episode and by GRPO group.
//
// Algorithms fill each transition's Advantage and Return, then iterate over
// shuffled minibatches whose sequences have similar lengths, so that the
// trainer pads little. The buffer is cleared after each update.
package buffer
