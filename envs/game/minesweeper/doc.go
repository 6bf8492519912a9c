// Package minesweeper is GEM's Minesweeper game (game:Minesweeper-v0-*):
// reveal every safe cell of a square board without opening a mine.
//
// Rules: the action is the last \boxed{reveal r c} or
// \boxed{flag r c} (0-indexed row and column). Mines are placed after the
// first reveal, outside its 3×3 neighbourhood, so the first reveal is always
// safe. A revealed zero opens its neighbours (flood fill). A reveal scores
// newly_revealed/safe_cells, so the rewards of a won game sum to 1; opening
// a mine scores 0 and ends the episode. Unlike GEM, flags are never required:
// revealing every safe cell wins. Flagging toggles a flag and scores 0.
//
// Options: style, max_turns and sample: "any" (the default random draw) or
// "deduce", a teacher for a warm-up that reads the visible board only
// (deduce.go): the first hidden cell the single-number rules prove safe,
// else a guess.
//
// docs/envs.md compares these rules with GEM's.
package minesweeper
