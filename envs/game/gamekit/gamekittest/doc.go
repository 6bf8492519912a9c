// Package gamekittest holds the test helpers and the shared test suite of
// the game envs under envs/game:
//
//   - CheckRegister, the registration test every game runs: its -easy,
//     -hard and -random ids with one-line descriptions, both styles, the
//     max_turns option and option errors;
//   - BenchStep and BenchReset, the benchmarks of a game's Step and Reset,
//     with actions from Cycle (a fixed sequence) or Sampled (the env's own
//     SampleAction);
//   - Registry, Make, New and Step, which make an env of a game's own type
//     and play a step that must succeed, and SameSeedSameEpisode.
//
// The conformance suite envtest.CheckEnv runs once per id, over the
// built-in registry in envs/builtin, not in the game packages.
package gamekittest
