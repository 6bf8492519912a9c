// Package algo holds gemgo's reinforcement-learning algorithms over
// turn-level transitions: one env turn is one transition (one prompt, one
// response).
//
// returns.go is pure float64 math shared by all of them: discounted
// returns, batch and group normalisation, the leave-one-out baseline and
// GAE. Each algorithm lives in a file of its own, CleanRL-style, and
// differs from the others only in how it turns rewards into per-turn
// advantages (and, for PPO, in its critic):
//
//   - REINFORCE: A_t = G_t.
//   - ReBN: A_t = (G_t − mean G) / (std G + ε) over the batch.
//   - GRPO (and Dr.GRPO, RLOO): one advantage per episode from its group.
//   - PPO: GAE over turns with a learned turn-level critic.
//
// Config (config.go) is the algo section of a training config, the one
// declaration of every algorithm setting; New builds the algorithm it
// names (each reads its settings from that Config), and the table there is
// the one list of algorithms (Names), with what each needs from the
// trainer (NeedsCritic, UsesGroups). loss.go is the loss they all minimise
// (LossConfig, the loss section; Loss, the per-token objective the policy
// trainer's loss head consumes), update.go the shared update. The end-to-end learning tests, which train policies through
// package train, live in train; the tests here are the unit suite.
package algo
