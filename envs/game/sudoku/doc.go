// Package sudoku is GEM's Sudoku game (game:Sudoku-v0-*): fill a 4×4 or
// 9×9 grid so that every row, column and box holds each number once.
//
// Rules (ENVS.md): every generated puzzle has exactly one solution. The
// action is the last \boxed{row col num} (1-indexed). A correct placement
// scores 1/initially_empty, so a solved puzzle totals 1; a wrong number or a
// number on a filled cell scores 0, places nothing, and the episode goes on
// (an invalid move, with a message saying why). Filling the last cell wins.
package sudoku
