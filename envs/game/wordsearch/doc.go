// Package wordsearch is GEM's WordSearch game: find the listed words hidden
// in a grid of letters by giving the coordinates of their two ends.
//
// GEM has one setting (5 words, 20 turns); gemgo's levels vary the grid
// and the directions words may run in:
//
//   - game:WordSearch-v0-easy: 8×8 grid, 5 words of 3 to 5 letters, each
//     running left to right or top to bottom; 20 turns.
//   - game:WordSearch-v0-hard: 12×12 grid, 5 words of 4 to 7 letters in
//     any of the 8 directions (backwards and diagonals too); 20 turns.
//   - game:WordSearch-v0-random: easy or hard, drawn on each Reset.
//
// The action is the last \boxed{r1 c1 r2 c2} of the response: the row and
// column (0-indexed) of one end of a word and of the other end, in either
// order (commas and parentheses are allowed). A box that does not hold four
// whole numbers is a format error (reward envs.RewardFormatError, the
// episode terminates). Coordinates outside the grid, two ends not on one
// row, column or diagonal, or a word already found are invalid moves
// (reward 0, a message, the episode goes on). A word is credited only for
// its own cells: the two ends given must be the two ends of the line it is
// hidden on, in either order, as in GEM; any other line scores 0 with "No
// hidden word". The generator makes that line the only one spelling the
// word, either way round and in any direction: it never hides a word with
// its reverse (GUM beside MUG) and redraws the random letters when they
// would spell a hidden word again. Each word found earns 1/words; finding
// all of them ends the episode. Every step counts towards the turn limit;
// reaching it truncates the episode with that step's reward.
//
// Options: style ("gem" or "brief"), max_turns (default 20), word_file and
// dictionary (see package words; the default is the embedded list, so an
// episode depends only on its seed), sample ("any", the default: random
// play's straight lines; "last": a deterministic teacher, LastMove, the
// ends of the last word left in the list, its last letter's cell first)
// and show_grid (default false; true ends every observation after a move
// with the words left and the grid, as the first observation ends, so a
// policy that sees only the latest observation still sees the grid).
package wordsearch
