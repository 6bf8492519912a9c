package crosswords

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gemgo/gemgo/envs"
)

// Views: how an observation draws the state (Config.View, the option
// view).
const (
	// ViewGrid is GEM's: the clues once, in the first observation, and
	// the grid with row and column numbers in every observation.
	ViewGrid = "grid"
	// ViewCells draws no grid: every observation lists each clue followed
	// by its cells in order, each "row,col" and its letter or _ for an
	// empty cell ("1. Pet that purrs: 0,2 C 0,3 _ 0,4 _"): a few tokens a
	// cell for a small policy, the letter the same token (" C") as in a
	// move. The cells are those of
	// the grid (every letter cell lies in a word), so the latest
	// observation holds the whole state, clues included, and a cell to
	// fill is written as the move names it. Word lengths show on every
	// level.
	ViewCells = "cells"
)

// cellsInstructions is the first observation of the cells view.
func (e *Env) cellsInstructions() string {
	var b strings.Builder
	if e.cfg.Style == envs.StyleBrief {
		fmt.Fprintf(&b, "Crossword, %d turns. Reply \\boxed{row col letter}. Cells: row,col letter, _ = empty.\n", e.maxTurns)
	} else {
		fmt.Fprintf(&b, "You are solving a crossword in at most %d turns. Each turn, write one letter into one empty cell "+
			"with \\boxed{row col letter}, rows and columns counted from 0, for example \\boxed{0 2 E}. "+
			"Each clue is followed by its cells, each as row,col and its letter, with _ for an empty cell. "+
			"A wrong letter is not written.\n", e.maxTurns)
	}
	e.writeCells(&b)
	return strings.TrimRight(b.String(), "\n")
}

// writeCells writes one line per clue: its number, its text and its
// cells.
func (e *Env) writeCells(b *strings.Builder) {
	p := &e.puzzle
	var buf [20]byte
	for i, en := range p.Entries {
		b.Write(strconv.AppendInt(buf[:0], int64(i+1), 10))
		b.WriteString(". ")
		b.WriteString(en.Clue)
		b.WriteByte(':')
		dr, dc := en.Step()
		for j := range len(en.Word) {
			r, c := en.Row+dr*j, en.Col+dc*j
			b.WriteByte(' ')
			b.Write(strconv.AppendInt(buf[:0], int64(r), 10))
			b.WriteByte(',')
			b.Write(strconv.AppendInt(buf[:0], int64(c), 10))
			b.WriteByte(' ')
			if l := e.filled[r*p.Cols+c]; l != 0 {
				b.WriteByte(l - 'a' + 'A')
			} else {
				b.WriteByte('_')
			}
		}
		b.WriteByte('\n')
	}
}
