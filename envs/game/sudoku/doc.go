// Package sudoku is GEM's Sudoku game (game:Sudoku-v0-*): fill a 4×4 or
// 9×9 grid so that every row, column and box holds each number once.
//
// Levels: easy is a 4×4 grid with up to 10 empty cells and 15 turns; hard
// a 9×9 grid with up to 50 empty cells and 50 turns; random draws one of
// the two on each Reset. As in GEM, the generator tries to blank that many
// cells of a random full grid and fills a cell again when its blank would
// admit a second solution, so easy puzzles have 8 to 10 empty cells and
// hard ones mostly 46 to 48; every puzzle has exactly one solution.
//
// The action is the last \boxed{row col num} (1-indexed). A correct
// placement scores 1/initially_empty, so a solved puzzle totals 1; a wrong
// number or a number on a filled cell scores 0, places nothing, and the
// episode goes on (an invalid move, with a message saying why). Filling the
// last cell wins. A box that does not hold three whole numbers is a format
// error (reward envs.RewardFormatError, the episode terminates). Reaching
// the turn limit truncates the episode.
//
// Options: style ("gem" or "brief"), max_turns (0 keeps the level's),
// sample ("any", the default random draw; "single": SampleAction plays
// the first naked single, see Env.SetSampleSingle; "first": the smallest
// number that fits the first unmarked empty cell, see Env.SetSampleFirst,
// which needs mark_rejected), mark_rejected (false,
// the default: GEM's grid; true: the cells rejected since the last
// placement show as 'x', see Env.SetMarkRejected) and mark_filled (false,
// the default; true: the filled cells that moves named since the last
// placement show '!' before them, see Env.SetMarkFilled).
package sudoku
