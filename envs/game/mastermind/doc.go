// Package mastermind is GEM's Mastermind game: find a secret code of
// distinct digits from black/white peg feedback within a turn limit.
//
// Ids (see Register): game:Mastermind-v0-easy (2 digits from 1–6, 10
// turns), game:Mastermind-v0-hard (4 digits from 1–8, 30 turns) and
// game:Mastermind-v0-random, which draws (length, digits, turns) from
// (2, 4, 10), (4, 6, 20) and (4, 8, 30) on every Reset. The code never
// repeats a digit; guesses may.
//
// The action is the last \boxed{...} of the response holding the guess:
// numbers separated by spaces and/or commas (\boxed{1 2 3 4},
// \boxed{1,2,3,4}), or one run of digits read one digit each
// (\boxed{1234}). Any other character inside the box, an empty box or no
// box is a format error: reward −0.1 and the episode terminates. A guess of
// the wrong length or with a number outside 1..digits parses but is an
// invalid move: reward 0, Info[envs.InfoInvalid], the episode goes on.
//
// Feedback: black pegs count the positions where the guess matches the
// code; white pegs count the digits of the guess that are in the code but in
// another place, each code digit used at most once (so a guess that repeats
// a digit scores it once: code 1 2 3 4, guess 1 1 1 1 → 1 black, 0 white).
//
// Rewards: whenever the black pegs of a guess exceed the best count so far,
// the step pays (black − best)/length, so a solve totals 1.0; the guess
// equal to the code ends the episode (Terminated, success). The turn limit
// truncates the episode with no further reward. A guess made before is
// scored like any other (its pegs again, reward 0, since it cannot beat the
// best count); GEM calls it an invalid move, which pays the same.
//
// Observations come in two styles (option "style"): "gem", prose in the
// manner of GEM, and "brief", a one-line instruction followed, on each step,
// by one line that carries the guess and its pegs:
//
//	Find the code of 4 distinct digits 1-8 in 30 turns. Answer \boxed{d d d d}.
//	1 2 3 4: black 1, white 2
//	1 2 3: need 4 digits
//
// Random actions (SampleAction) are any guess in range, as GEM's; option
// "sample: consistent" draws a code consistent with every peg count so far
// instead (up to MaxConsistent codes), so random play keeps to what the
// feedback has left.
package mastermind
