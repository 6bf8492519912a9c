package game2048

import "fmt"

// Sample names the player behind SampleAction (the env option sample).
type Sample string

const (
	// SampleAny is GEM's draw, the default: a random move among those that
	// change the board.
	SampleAny Sample = "any"
	// SampleCorner plays the first move of down, left, right, up that
	// changes the board: a fixed priority that piles the tiles into the
	// bottom-left corner.
	SampleCorner Sample = "corner"
	// SampleMerge plays down if it merges two tiles, else left if it
	// does, else as SampleCorner: the corner's priority, merges first.
	SampleMerge Sample = "merge"
	// SampleLookahead looks one move ahead (before the new tile appears):
	// among the moves that change the board it keeps the largest tile in
	// the bottom-left corner where one can, then leaves the most empty
	// cells, then breaks ties in the order down, left, right, up.
	SampleLookahead Sample = "lookahead"
	// SampleAlternate plays down and left in turn: of down and left, the
	// one the last move asked for was not (down at an episode's first
	// turn, and after right or up), else the other, else right, else up,
	// the first that changes the board. The last move asked for, valid or
	// not, is the observation's feedback line ("Moved down.", "... slide
	// down."), so the move is a function of what the policy reads: that
	// word and the board, and mostly of the word alone.
	SampleAlternate Sample = "alternate"
	// SampleRotate turns the moves round: down, right, up, left, down,
	// ..., the move after the one the last move asked for (down at an
	// episode's first turn), else the first of down, left, right, up
	// that changes the board. Like SampleAlternate it reads the feedback
	// line's move word and the board.
	SampleRotate Sample = "rotate"
)

// samples lists the option's values, the default first.
var samples = []string{string(SampleAny), string(SampleCorner), string(SampleMerge), string(SampleLookahead), string(SampleAlternate), string(SampleRotate)}

// priority is the tie order of both scripted players.
var priority = [...]dir{down, left, right, up}

// turn is SampleRotate's move after each move: down, right, up, left.
var turn = [...]dir{left: down, down: right, right: up, up: left}

// corner is the cell that SampleLookahead keeps the largest tile in.
const corner = (size - 1) * size

// SetSample chooses SampleAction's player; the game is unchanged. The
// option sample sets it.
func (e *Env) SetSample(s Sample) error {
	switch s {
	case SampleAny, SampleCorner, SampleMerge, SampleLookahead, SampleAlternate, SampleRotate:
		e.sample = s
		return nil
	}
	return fmt.Errorf("game2048: sample %q: allowed values are any, corner, merge, lookahead, alternate, rotate", s)
}

// scripted returns the move of player s on b, where last is the move the
// episode's previous turn asked for (asked false at its first turn), and
// false when s is SampleAny or no move changes b. Only SampleAlternate
// and SampleRotate read last.
func (b *board) scripted(s Sample, last dir, asked bool) (dir, bool) {
	switch s {
	case SampleRotate:
		next := down
		if asked {
			next = turn[last]
		}
		if b.legal(next) {
			return next, true
		}
		return b.scripted(SampleCorner, last, asked)
	case SampleAlternate:
		first, second := down, left
		if asked && last == down {
			first, second = left, down
		}
		for _, d := range [...]dir{first, second, right, up} {
			if b.legal(d) {
				return d, true
			}
		}
	case SampleMerge:
		for _, d := range priority[:2] {
			next := *b
			if changed, _ := next.move(d); changed && next.empty() > b.empty() {
				return d, true
			}
		}
		return b.scripted(SampleCorner, last, asked)
	case SampleCorner:
		for _, d := range priority {
			if b.legal(d) {
				return d, true
			}
		}
	case SampleLookahead:
		best, bestScore := dir(0), -1
		for _, d := range priority {
			next := *b
			if changed, _ := next.move(d); !changed {
				continue
			}
			score := next.empty()
			if next[corner] == next.maxTile() {
				score += size*size + 1 // outranks any count of empty cells
			}
			if score > bestScore {
				best, bestScore = d, score
			}
		}
		return best, bestScore >= 0
	}
	return 0, false
}

// empty counts the empty cells of b.
func (b *board) empty() int {
	n := 0
	for _, x := range b {
		if x == 0 {
			n++
		}
	}
	return n
}
