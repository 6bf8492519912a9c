// Package envs is gemgo's env contract, after GEM (arXiv 2510.01051) and
// shaped like Gymnasium: text in, text out. It is the one package a user
// imports to write, wrap or drive an env:
//
//   - the contract: Env (Reset and Step), the Step it returns, Info and its
//     well-known keys (InfoSuccess, InfoFormatError, InfoInvalid, InfoTurn,
//     InfoMaxTurns), the optional interfaces (ActionSampler,
//     FormatErrorRewarder, Describer), ErrNotReset, and the standard rewards;
//   - the Registry type that makes envs by their GEM ids from Options, with
//     did-you-mean errors for unknown ids and options, and MakeForClient,
//     which reads options that come from a server's client under a
//     ClientPolicy (each env declares which options are the operator's and
//     which spend the server's resources: clientopts.go);
//   - \boxed{...} parsing shared by every text game (LastBoxed, Boxed), and
//     <answer>...</answer> parsing for the single-turn tasks that ask for
//     tags (LastAnswerTag, AnswerTagged);
//   - wrappers, each changing one thing and forwarding the rest (Unwrap,
//     SampleAction, Close): TimeLimit (a turn limit that truncates),
//     EpisodeStats (return, turns and success on the step that ends an
//     episode, read back with SummaryOf), and GEM's text observation
//     wrappers ObservationHistory and ActionObservationHistory, and
//     RandomStart (exploring starts: some episodes begin after random turns);
//   - VectorEnv, gemgo's one vector runner (rollout.Collector plays its
//     episodes through one), which steps many envs on a worker pool, turns
//     an env's error or panic into an error naming the env and its seed,
//     and either autoresets each env with a seed derived from one base seed
//     (EpisodeSeed) or leaves the resets to the caller (AutoresetDisabled).
//
// The registry of built-in envs lives in the leaf package envs/builtin,
// which imports every game and task family. The split keeps the contract
// free of games: env packages import envs, and envs imports none of them,
// so there is one import path for the contract and no cycle.
//
//	reg := builtin.Registry()
//	env, err := reg.Make("game:GuessTheNumber-v0-easy", envs.With("style", "brief"))
//	obs, info, err := env.Reset(7)
//	st, err := env.Step(`\boxed{5}`)
package envs
