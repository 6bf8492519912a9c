package sudoku

import (
	"math/bits"
	"math/rand/v2"
)

// shape is the geometry of an n×n Sudoku with b×b boxes (n = b²).
type shape struct{ n, b int }

func (s shape) box(r, c int) int { return (r/s.b)*s.b + c/s.b }

// solution returns a random complete grid (row-major, values 1..n), filled
// by backtracking with the candidates of each cell tried in random order;
// every complete grid can come out.
func (s shape) solution(rng *rand.Rand) []int8 {
	g := make([]int8, s.n*s.n)
	var row, col, box [9]uint16
	full := uint16(1)<<s.n - 1
	var fill func(i int) bool
	fill = func(i int) bool {
		if i == len(g) {
			return true
		}
		r, c := i/s.n, i%s.n
		bx := s.box(r, c)
		free := full &^ (row[r] | col[c] | box[bx])
		var buf [9]int8
		k := 0
		for ; free != 0; free &= free - 1 {
			buf[k] = int8(bits.TrailingZeros16(free))
			k++
		}
		cands := buf[:k]
		rng.Shuffle(len(cands), func(a, b int) { cands[a], cands[b] = cands[b], cands[a] })
		for _, d := range cands {
			m := uint16(1) << d
			g[i] = d + 1
			row[r] |= m
			col[c] |= m
			box[bx] |= m
			if fill(i + 1) {
				return true
			}
			row[r] &^= m
			col[c] &^= m
			box[bx] &^= m
		}
		g[i] = 0
		return false
	}
	fill(0) // the empty grid always has a completion
	return g
}

// countSolutions counts the completions of g (0 = empty), stopping at limit.
func (s shape) countSolutions(g []int8, limit int) int { return s.search(g, limit, nil) }

// complete returns the first completion of g found by search, or nil when
// g has none.
func (s shape) complete(g []int8) []int8 {
	out := make([]int8, len(g))
	if s.search(g, 1, out) == 0 {
		return nil
	}
	return out
}

// search counts the completions of g by backtracking, most constrained
// empty cell first, stopping at limit; when first is not nil, the first
// completion found is copied into it.
func (s shape) search(g []int8, limit int, first []int8) int {
	var row, col, box [9]uint16
	for i, v := range g {
		if v != 0 {
			m := uint16(1) << (v - 1)
			r, c := i/s.n, i%s.n
			if row[r]&m != 0 || col[c]&m != 0 || box[s.box(r, c)]&m != 0 {
				return 0
			}
			row[r] |= m
			col[c] |= m
			box[s.box(r, c)] |= m
		}
	}
	work := append([]int8(nil), g...)
	full := uint16(1)<<s.n - 1
	found := 0
	var solve func() int
	solve = func() int {
		// Most constrained empty cell first.
		best, bestFree := -1, uint16(0)
		bestCount := 10
		for i, v := range work {
			if v != 0 {
				continue
			}
			r, c := i/s.n, i%s.n
			free := full &^ (row[r] | col[c] | box[s.box(r, c)])
			k := bits.OnesCount16(free)
			if k < bestCount {
				best, bestFree, bestCount = i, free, k
				if k <= 1 {
					break
				}
			}
		}
		if best < 0 {
			if found == 0 && first != nil {
				copy(first, work)
			}
			found++
			return 1
		}
		r, c := best/s.n, best%s.n
		bx := s.box(r, c)
		total := 0
		for free := bestFree; free != 0 && total < limit; free &= free - 1 {
			m := free & -free
			work[best] = int8(bits.TrailingZeros16(m) + 1)
			row[r] |= m
			col[c] |= m
			box[bx] |= m
			total += solve()
			row[r] &^= m
			col[c] &^= m
			box[bx] &^= m
		}
		work[best] = 0
		return total
	}
	return solve()
}

// puzzle returns a puzzle of sol with exactly one solution, made as GEM
// makes its puzzles: tries cells of a random order are blanked one by one,
// and a cell whose blank would admit a second solution is filled again. So
// the puzzle has at most tries empty cells, and a few fewer when some of
// the tried cells had to stay.
func (s shape) puzzle(rng *rand.Rand, sol []int8, tries int) []int8 {
	g := append([]int8(nil), sol...)
	order := rng.Perm(len(g))
	for _, i := range order[:min(tries, len(order))] {
		g[i] = 0
		if s.countSolutions(g, 2) != 1 {
			g[i] = sol[i]
		}
	}
	return g
}

// conflict says where v at (r, c) clashes with a filled cell of g: "row",
// "column", "box", or "" when it clashes with none.
func (s shape) conflict(g []int8, r, c int, v int8) string {
	for k := range s.n {
		if g[r*s.n+k] == v {
			return "row"
		}
		if g[k*s.n+c] == v {
			return "column"
		}
	}
	br, bc := r/s.b*s.b, c/s.b*s.b
	for dr := range s.b {
		for dc := range s.b {
			if g[(br+dr)*s.n+bc+dc] == v {
				return "box"
			}
		}
	}
	return ""
}

// render writes g with 1-based row and column numbers; '.' is empty, 'x'
// an empty cell i with marks[i] set, and a filled cell i with hits[i] set
// has '!' before it instead of a space (marks, hits nil: none).
func (s shape) render(buf []byte, g []int8, marks, hits []bool) []byte {
	buf = append(buf, ' ')
	for c := range s.n {
		buf = append(buf, ' ', byte('1'+c))
	}
	for r := range s.n {
		buf = append(buf, '\n', byte('1'+r))
		for c := range s.n {
			sep, ch := byte(' '), byte('.')
			if v := g[r*s.n+c]; v != 0 {
				ch = byte('0' + v)
				if hits != nil && hits[r*s.n+c] {
					sep = '!'
				}
			} else if marks != nil && marks[r*s.n+c] {
				ch = 'x'
			}
			buf = append(buf, sep, ch)
		}
	}
	return buf
}
