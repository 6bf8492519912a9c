// Package gamekittest holds the test helpers that the game envs' tests
// repeat: a registry holding one game's ids, making an env of the game's
// own type from it, and a Step that must succeed and count the turn.
package gamekittest
