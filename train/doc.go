// Package train is gemgo's training loop, behind cmd/train and cmd/compare:
// a config (defaults, strict YAML, key=value overrides, validation), and
// Run, which builds the envs, the tokenizer and the policy, warms the
// policy up on the action format, then alternates rollouts and updates of
// the configured algorithm, evaluating greedily on held-out seeds, writing
// metrics, reports and checkpoints into the run directory.
package train
