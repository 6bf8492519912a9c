// Package guessnumber is GEM's GuessTheNumber game: find a secret whole
// number in a range from "higher"/"lower" hints within a turn limit.
//
// Ids (see Register): game:GuessTheNumber-v0-easy (1–10, 4 turns),
// game:GuessTheNumber-v0-hard (1–50, 7 turns) and
// game:GuessTheNumber-v0-random, which draws min ∈ [1, 10],
// max ∈ [min+5, min+50] and ⌈√(max−min)⌉+1 turns on every Reset.
//
// The action is the last \boxed{...} of the response, holding one integer
// in decimal with an optional sign (\boxed{7}, \boxed{-3}, \boxed{007}).
// Anything else inside the box (\boxed{abc}, \boxed{5.5}, \boxed{1,000},
// an empty box) or no box at all is a format error: reward −0.1 and the
// episode terminates.
//
// Rewards: the correct number 1.0 and the episode terminates; any other
// guess 0. A guess outside [min, max] (0 included — GEM wrongly treats 0 as
// a format error) or one already made is reported and the episode goes on;
// Info[envs.InfoInvalid] is true for those. When the last turn passes
// without a win the episode is truncated and that last step pays
// 1 − |guess − target|/(max − min) for an in-range guess (a repeated guess
// included, as in GEM) and 0 for an out-of-range one. The option
// partial_credit: false turns that partial credit off (a lost game pays 0),
// for training where a near miss should not look almost as good as a win.
//
// Observations come in two styles (option "style"): "gem", prose in the
// manner of GEM, and "brief", a one-line instruction followed, on each step,
// by one line that carries the guess and what it taught:
//
//	Guess the number between 1 and 10 in 4 turns. Answer \boxed{n}.
//	5: higher
//	8: lower
//	0: out of range 1-10
//	7: correct
//
// Info on every step holds envs.InfoTurn and "guess" (when the action
// parsed); the step that ends the episode also holds envs.InfoSuccess and
// "target".
package guessnumber
