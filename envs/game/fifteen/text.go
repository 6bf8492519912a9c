package fifteen

import (
	"strconv"
	"strings"

	"github.com/gemgo/gemgo/envs"
)

// writeBoard writes the board: "3 _ / 2 1" in brief style; in GEM style one
// row per line, each cell two characters wide, the blank as "__".
func (e *Env) writeBoard(sb *strings.Builder) {
	b := &e.b
	brief := e.cfg.Style == envs.StyleBrief
	for i, v := range b.cells {
		switch {
		case i == 0:
		case i%b.n == 0 && brief:
			sb.WriteString(" / ")
		case i%b.n == 0:
			sb.WriteByte('\n')
		default:
			sb.WriteByte(' ')
		}
		switch {
		case v == 0 && brief:
			sb.WriteByte('_')
		case v == 0:
			sb.WriteString("__")
		default:
			if !brief && v < 10 {
				sb.WriteByte(' ')
			}
			sb.WriteString(strconv.Itoa(v))
		}
	}
}

// intro is the observation returned by Reset.
func (e *Env) intro() string {
	var sb strings.Builder
	top, turns := strconv.Itoa(e.lv.Size*e.lv.Size-1), strconv.Itoa(e.lv.MaxTurns)
	if e.cfg.Style == envs.StyleBrief {
		sb.WriteString("Sort tiles 1-" + top + " with the blank _ last in " + turns +
			" turns. Answer \\boxed{up}, down, left or right: the tile that slides into _.\n")
		e.writeBoard(&sb)
		return sb.String()
	}
	size := strconv.Itoa(e.lv.Size)
	sb.WriteString("You are playing the " + top + "-Puzzle.\n" +
		"The " + size + "x" + size + " board holds tiles 1 to " + top + " and one empty square (shown as __). " +
		"Put the tiles in order, 1 to " + top + " row by row, with the empty square in the bottom-right corner, within " + turns + " turns.\n" +
		"Each turn slides one tile next to the empty square into it: up moves the tile below the empty square up, " +
		"down the tile above it down, left the tile to its right left, and right the tile to its left right.\n" +
		"Think as you like; only the last \\boxed{} of your answer counts as your move, for example \\boxed{up}.\n" +
		"The board now:\n")
	e.writeBoard(&sb)
	return sb.String()
}

// feedback is the observation of a move that parsed.
func (e *Env) feedback(dir int, moved, solved, last bool) string {
	var sb strings.Builder
	if e.cfg.Style == envs.StyleBrief {
		sb.WriteString(dirNames[dir])
		sb.WriteString(": ")
		if !moved {
			sb.WriteString("no tile there; ")
		}
		e.writeBoard(&sb)
		if last && !solved {
			sb.WriteString("; out of turns")
		}
		return sb.String()
	}
	sb.WriteString("Turn " + strconv.Itoa(e.ep.Turn) + ": ")
	if moved {
		sb.WriteString("you moved a tile " + dirNames[dir] + ".")
	} else {
		sb.WriteString("there is no tile to move " + dirNames[dir] + "; nothing moved.")
	}
	switch {
	case solved:
		sb.WriteString(" The puzzle is solved in " + strconv.Itoa(e.ep.Turn) + " turns!")
	case last:
		sb.WriteString(" You have used all your turns.")
	}
	sb.WriteString("\nThe board now:\n")
	e.writeBoard(&sb)
	return sb.String()
}

// formatError is the observation of a step whose action did not parse.
func (e *Env) formatError() string {
	if e.cfg.Style == envs.StyleBrief {
		return "no valid \\boxed{up|down|left|right}: game over"
	}
	return "Turn " + strconv.Itoa(e.ep.Turn) + ": no valid move was found (write up, down, left or right inside \\boxed{}). The game is over."
}
