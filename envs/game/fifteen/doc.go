// Package fifteen is GEM's FifteenPuzzle game: slide numbered tiles on an
// n×n board with one blank until they read 1, 2, … in row order with the
// blank last.
//
// Ids (see Register): game:FifteenPuzzle-v0-easy (2×2, 10 turns),
// game:FifteenPuzzle-v0-hard (4×4, 50 turns) and
// game:FifteenPuzzle-v0-random, which draws (size, turns) from (2, 10),
// (3, 20) and (4, 50) on every Reset (GEM's -random crashes on
// construction; this one is tested over many seeds).
//
// The start is the goal scrambled by random non-backtracking moves (never
// undoing the move just made): half the turn limit by default (option
// "scramble"), one more if the walk happens to end on the goal. Replaying the
// scramble backwards solves it within the limit.
//
// The action is the last \boxed{...} of the response naming the direction
// in which a tile slides into the blank: up, down, left or right, in any
// case, or its first letter (u, d, l, r). "up" moves the tile below the
// blank up. Anything else in the box, an empty box or no box is a format
// error: reward −0.1 and the episode terminates. A direction with no tile to
// move (up when the blank is on the bottom row, say) is an invalid move:
// reward 0, Info[envs.InfoInvalid], the episode goes on.
//
// Rewards: the move that solves the board pays 1.0 and ends the episode
// (Terminated, success); other moves pay 0. When the turn limit passes
// first the episode is truncated and the last step pays the fraction of the
// n²−1 numbered tiles that stand on their goal square. The blank does not
// count: GEM's partial reward also counts the blank's square, one of n².
//
// Observations come in two styles (option "style"): "gem", prose in the
// manner of GEM with the board drawn one row per line, and "brief":
//
//	Sort tiles 1-3 with the blank _ last in 10 turns. Answer \boxed{up}, down, left or right: the tile that slides into _.
//	3 _ / 2 1
//
// and then, on each step, one line with the move and the board after it:
//
//	right: _ 3 / 2 1
//	left: no tile there; _ 3 / 2 1
package fifteen
