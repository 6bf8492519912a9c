// Package gamekit holds the production code that every game env of
// envs/game repeats:
//
//   - Register and Level: the -easy, -hard and -random ids of a level
//     table, with their descriptions; Common and Factory read the options
//     every game accepts (style and max_turns); AsEnv returns a
//     constructor's result from a factory.
//   - Defaults, StyleOrGEM, CheckStyle and CheckMaxTurns: the defaults and
//     checks of a game's Config.
//   - Episode: the turn bookkeeping of Step (envs.ErrNotReset outside an
//     episode, the envs.InfoTurn count); FormatError, the step that ends an
//     episode on an unparsable action; Limit, the turn limit of an episode.
//   - Pick, ParseWord, BoxedFields and Int: drawing an episode's level and
//     reading boxed moves.
//
// It imports only the contract package envs, so every game package can use it.
package gamekit
