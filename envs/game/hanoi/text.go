package hanoi

import (
	"strconv"
	"strings"

	"github.com/gemgo/gemgo/envs"
)

const pegNames = "ABC"

// writePegs writes the pegs: "A[3 2 1] B[] C[]" in brief style, one line
// per peg ("A: 3 2 1", "B: (empty)") in GEM style.
func (e *Env) writePegs(b *strings.Builder) {
	brief := e.cfg.Style == envs.StyleBrief
	for p, peg := range e.pegs {
		if brief {
			if p > 0 {
				b.WriteByte(' ')
			}
			b.WriteByte(pegNames[p])
			b.WriteByte('[')
		} else {
			b.WriteByte('\n')
			b.WriteByte(pegNames[p])
			b.WriteString(": ")
			if len(peg) == 0 {
				b.WriteString("(empty)")
			}
		}
		for i, d := range peg {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(strconv.Itoa(d))
		}
		if brief {
			b.WriteByte(']')
		}
	}
}

// intro is the observation returned by Reset.
func (e *Env) intro() string {
	var b strings.Builder
	disks, turns := strconv.Itoa(e.lv.Disks), strconv.Itoa(e.lv.MaxTurns)
	if e.cfg.Style == envs.StyleBrief {
		b.WriteString("Move " + disks + " disks from A to C in " + turns + " turns, never onto a smaller disk. Answer \\boxed{from to}.\n")
		e.writePegs(&b)
		return b.String()
	}
	b.WriteString("You are playing the Tower of Hanoi.\n" +
		"There are three pegs, A, B and C. Peg A holds " + disks + " disks, numbered by size from 1 (the smallest) to " + disks + ", listed bottom to top.\n" +
		"Move the whole tower to peg C within " + turns + " turns. Each turn moves the top disk of one peg onto another peg; " +
		"a disk may never be placed on a smaller disk.\n" +
		"Think as you like; only the last \\boxed{} of your answer counts as your move: the source peg and the target peg, " +
		"for example \\boxed{A C}.\n" +
		"The pegs now:")
	e.writePegs(&b)
	return b.String()
}

// feedback is the observation of a move that parsed.
func (e *Env) feedback(from, to int, problem *illegal, solved, last bool) string {
	var b strings.Builder
	if e.cfg.Style == envs.StyleBrief {
		b.WriteByte(pegNames[from])
		b.WriteByte(' ')
		b.WriteByte(pegNames[to])
		b.WriteString(": ")
		if problem != nil {
			b.WriteString("illegal, ")
			switch problem.kind {
			case samePeg:
				b.WriteString("same peg")
			case emptyPeg:
				b.WriteString(pegNames[from:from+1] + " is empty")
			case onSmaller:
				b.WriteString(strconv.Itoa(problem.disk) + " onto " + strconv.Itoa(problem.onto))
			}
			b.WriteString("; ")
		}
		e.writePegs(&b)
		if last && !solved {
			b.WriteString("; out of turns")
		}
		return b.String()
	}
	b.WriteString("Turn " + strconv.Itoa(e.ep.Turn) + ": ")
	if problem != nil {
		b.WriteString("you cannot move from " + pegNames[from:from+1] + " to " + pegNames[to:to+1] + ": ")
		switch problem.kind {
		case samePeg:
			b.WriteString("the source and target are the same peg.")
		case emptyPeg:
			b.WriteString("peg " + pegNames[from:from+1] + " is empty.")
		case onSmaller:
			b.WriteString("disk " + strconv.Itoa(problem.disk) + " cannot go onto the smaller disk " + strconv.Itoa(problem.onto) + ".")
		}
		b.WriteString(" Nothing moved.")
	} else {
		top := e.pegs[to][len(e.pegs[to])-1]
		b.WriteString("you moved disk " + strconv.Itoa(top) + " from " + pegNames[from:from+1] + " to " + pegNames[to:to+1] + ".")
	}
	switch {
	case solved:
		b.WriteString(" The tower is complete on peg C in " + strconv.Itoa(e.ep.Turn) + " turns!")
	case last:
		b.WriteString(" You have used all your turns.")
	}
	b.WriteString("\nThe pegs now:")
	e.writePegs(&b)
	return b.String()
}

// formatError is the observation of a step whose action did not parse.
func (e *Env) formatError() string {
	if e.cfg.Style == envs.StyleBrief {
		return "no valid \\boxed{from to}: game over"
	}
	return "Turn " + strconv.Itoa(e.ep.Turn) + ": no valid move was found (name two pegs, for example \\boxed{A C}). The game is over."
}
