// Package train is gemgo's training loop, behind cmd/train and cmd/compare:
// a config (defaults, an optional base file, strict YAML, key=value
// overrides, validation), and
// Run, which builds the envs, the tokenizer and the policy, warms the
// policy up on the action format, then alternates rollouts and updates of
// the configured algorithm, evaluating greedily on held-out seeds, writing
// metrics, reports and checkpoints into the run directory.
//
// Config composes the configs of the packages that own them: the model,
// loss, optimizer and sampling sections are policy's types, the algo
// section is algo.Config (algo.New builds the algorithm it names). Each
// package checks its own section; Config.Validate adds the checks across
// sections, and derive.go holds every value derived from the config.
package train
