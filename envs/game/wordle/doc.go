// Package wordle is GEM's Wordle game: find a secret English word from
// per-letter feedback.
//
// Ids: game:Wordle-v0-easy (3 letters, 15 turns), game:Wordle-v0-hard
// (5 letters, 25 turns) and game:Wordle-v0-random (a length of 3 to 5
// letters drawn on each Reset, 5 turns per letter).
//
// The action is the last \boxed{WORD} of the response (case-insensitive).
// A box whose content is not a run of letters a–z is a format error
// (reward envs.RewardFormatError, the episode terminates). A guess of the
// wrong length, a word not in the word list (GEM accepts any string: a flaw
// gemgo fixes) or a repeated guess is an invalid move: reward 0, a message,
// the episode goes on. Every step counts towards the turn limit.
//
// Feedback has one mark per letter: G (right letter, right spot), Y (in the
// word, another spot) and X (not in the word, or not as many times as
// guessed). Repeated letters follow the usual rule: greens are matched
// first, then each remaining letter of the guess, left to right, is yellow
// while unmatched copies of it remain in the answer.
//
// Rewards: each position that turns green for the first time in the episode
// earns 0.5/length, and the solving guess earns 0.5 more, so every solve
// totals 1.0. Reaching the turn limit unsolved truncates the episode with
// that step's reward.
//
// Options: style ("gem" or "brief"), max_turns (default 5 × length),
// word_file and dictionary (see package words; the default is the embedded
// list, so an episode depends only on its seed). Secret words and accepted
// guesses both come from the same list.
//
// Random actions (SampleAction) are any listed word of the secret's length,
// as GEM's; option "sample: consistent" draws uniformly among the listed
// words that, as the secret, would have given every guess so far its marks
// (tested with Feedback itself, so repeated letters count as the env counts
// them). Such play never repeats a guess and never wastes a turn on a word
// the marks rule out. Option "sample: first" plays, of those words, the
// first in the list's (alphabetical) order: a deterministic teacher for a
// warm-up to imitate, a function of the guesses and marks shown. It won
// every easy, hard and random game of 300 seeds each
// (TestSampleFirstMatchesAnIndependentReading), in 5.63 turns on average
// on the easy level.
package wordle
