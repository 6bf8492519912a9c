package minesweeper

// The teacher of the option sample: deduce. It reads the visible board only:
// each cell's state (hidden, revealed, flagged) and the number of a revealed
// cell; never where the mines are.

// deduce returns the cell that the teacher reveals on b, and false where no
// hidden unflagged cell is left. On a board with nothing revealed it picks
// the centre (the mines are placed outside the first reveal's 3×3
// neighbourhood, so the centre opens a zero). Otherwise it applies the two
// single-number rules once each:
//  1. a number equal to its count of unrevealed neighbours (flagged or not)
//     makes them all mines;
//  2. a number equal to its count of neighbours that rule 1 made mines makes
//     its other unrevealed neighbours safe;
//
// and it reveals the first hidden unflagged cell in reading order that rule
// 2 makes safe. Where none is, it falls back to the first hidden unflagged
// cell in reading order that rule 1 does not make a mine (a guess), and to
// the first hidden unflagged cell where every one is. (Repeating rule 1
// would prove nothing new: with its mines counted, a number has as many
// unrevealed neighbours left as mines left only where it had as many
// before.) Flags are the player's guesses: the teacher never reveals a
// flagged cell and proves nothing from one. mine is scratch space of at
// least n² cells.
func (b *board) deduce(mine []bool) (int, bool) {
	mine = mine[:b.n*b.n]
	clear(mine)
	if b.nOpen == 0 {
		c := b.n/2*b.n + b.n/2
		if b.state[c] == hidden {
			return c, true
		}
		return b.firstHidden(mine)
	}
	// 1. the mines: every unrevealed neighbour of a number that has as many.
	for i, s := range b.state {
		if s != revealed || b.count[i] == 0 {
			continue
		}
		if known, open := b.around(i, mine); known+open == int(b.count[i]) {
			for _, j := range b.neighbours(i) {
				if b.state[j] != revealed {
					mine[j] = true
				}
			}
		}
	}
	// 2. the first hidden unflagged cell next to a number whose mines rule
	// 1 has all found.
	for j, s := range b.state {
		if s != hidden || mine[j] {
			continue
		}
		var nb [8]int // around reuses b's neighbour buffer
		for _, i := range nb[:copy(nb[:], b.neighbours(j))] {
			if b.state[i] == revealed {
				if known, _ := b.around(i, mine); known == int(b.count[i]) {
					return j, true
				}
			}
		}
	}
	return b.firstHidden(mine)
}

// around counts the unrevealed neighbours of i proven mines (known) and the
// others (open).
func (b *board) around(i int, mine []bool) (known, open int) {
	for _, j := range b.neighbours(i) {
		switch {
		case b.state[j] == revealed:
		case mine[j]:
			known++
		default:
			open++
		}
	}
	return known, open
}

// firstHidden returns the first hidden unflagged cell not marked in mine,
// else the first hidden unflagged cell, else false.
func (b *board) firstHidden(mine []bool) (int, bool) {
	first := -1
	for j, s := range b.state {
		if s != hidden {
			continue
		}
		if !mine[j] {
			return j, true
		}
		if first < 0 {
			first = j
		}
	}
	return first, first >= 0
}
