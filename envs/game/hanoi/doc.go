// Package hanoi is GEM's TowerofHanoi game: move a tower of disks from peg
// A to peg C, one top disk per turn, never a disk onto a smaller one.
//
// Ids (see Register): game:TowerofHanoi-v0-easy (3 disks, 10 turns),
// game:TowerofHanoi-v0-hard (5 disks, 35 turns) and
// game:TowerofHanoi-v0-random, which draws (disks, turns) from (3, 10),
// (4, 20) and (5, 35) on every Reset. Disks are numbered by size, 1 the
// smallest; the optimal solution takes 2^disks − 1 moves.
//
// The action is the last \boxed{...} of the response naming the source and
// the target peg. What parses: exactly two peg letters A, B or C, in either
// case, optionally separated by spaces, commas, "-", ">", "=", "→" and the
// words "to" and "from" (any case): \boxed{A C}, \boxed{a c}, \boxed{AC},
// \boxed{A->C}, \boxed{A, C}, \boxed{from A to C}. Anything else (another
// letter such as D, a third peg, a disk number, an empty box, no box) is a
// format error: reward −0.1 and the episode terminates. A move that parses
// but breaks the rules (the same peg twice, an empty source peg, a larger
// disk onto a smaller one) is an invalid move: reward 0,
// Info[envs.InfoInvalid], nothing moves and the episode goes on.
//
// Rewards: the move that completes the tower on C pays 1.0 and ends the
// episode (Terminated, success); other moves pay 0. When the turn limit
// passes first the episode is truncated and the last step pays
// disks_on_C/disks.
//
// Observations come in two styles (option "style"): "gem", prose in the
// manner of GEM with one line per peg, and "brief":
//
//	Move 3 disks from A to C in 10 turns, never onto a smaller disk. Answer \boxed{from to}.
//	A[3 2 1] B[] C[]
//
// and then, on each step, one line with the move and the pegs after it:
//
//	A C: A[3 2] B[] C[1]
//	A C: illegal, 2 onto 1; A[3 2] B[] C[1]
package hanoi
