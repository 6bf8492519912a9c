// Package gamekit holds the production code that every game env of
// envs/game repeats: registering the -easy, -hard and -random ids of a
// level table, reading the common options (style and max_turns), and the
// turn bookkeeping of Step (Episode: ErrNotReset outside an episode, the InfoTurn
// count, the format-error step that ends an episode, the turn limit).
//
// It imports only envs/core, so every game package can use it.
package gamekit
