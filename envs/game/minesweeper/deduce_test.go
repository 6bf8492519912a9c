package minesweeper

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gemgo/gemgo/envs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// seenBoard returns fixedBoard(n, mines...) with the states of vis, one
// string a row: '.' hidden, 'F' flagged, 'o' revealed.
func seenBoard(t *testing.T, vis []string, mines ...[2]int) *board {
	t.Helper()
	b := fixedBoard(len(vis), mines...)
	for r, row := range vis {
		require.Len(t, row, b.n)
		for c, ch := range row {
			switch ch {
			case 'o':
				b.state[r*b.n+c] = revealed
				b.nOpen++
			case 'F':
				b.state[r*b.n+c] = flagged
			}
		}
	}
	return b
}

// TestDeduceHandBuilt: the teacher's move on boards worked out by hand.
func TestDeduceHandBuilt(t *testing.T) {
	rows := []string{"....", "oooo", "oooo", "oooo"}
	cases := []struct {
		name  string
		vis   []string
		mines [][2]int
		want  [2]int
	}{
		// Nothing revealed: the centre.
		{"first", []string{".....", ".....", ".....", ".....", "....."}, [][2]int{{0, 0}}, [2]int{2, 2}},
		// (0,3) shows 1 with one unrevealed neighbour, (0,2): a mine (rule
		// 1); (1,2) shows 1 and has it, so (0,1) is safe (rule 2). (0,0),
		// first in reading order, is proven nothing: (1,0) shows 1 with two
		// unrevealed neighbours.
		{"chain", []string{"...o", "oooo", "oooo", "oooo"}, [][2]int{{0, 0}, {0, 2}}, [2]int{0, 1}},
		// The same with (0,1) flagged: the teacher never reveals a flag, and
		// no other cell is proven safe, so it guesses the first cell not
		// proven a mine.
		{"flag", []string{".F.o", "oooo", "oooo", "oooo"}, [][2]int{{0, 0}, {0, 2}}, [2]int{0, 0}},
		// Every number shows 1 with two or three unrevealed neighbours:
		// nothing is proven, and the guess, (0,0), is a mine.
		{"guess", rows, [][2]int{{0, 0}, {0, 3}}, [2]int{0, 0}},
		// Column 3 hidden but for (3,3), which shows 1 with one unrevealed
		// neighbour: (2,3) is a mine, (2,2) shows 1 and has it, so (1,3) is
		// safe; (0,3) comes first but is proven nothing (it is a mine).
		{"column", []string{"ooo.", "ooo.", "ooo.", "oooo"}, [][2]int{{0, 3}, {2, 3}}, [2]int{1, 3}},
	}
	for _, c := range cases {
		b := seenBoard(t, c.vis, c.mines...)
		got, ok := b.deduce(make([]bool, b.n*b.n))
		require.True(t, ok, c.name)
		assert.Equal(t, c.want, [2]int{got / b.n, got % b.n}, c.name)
	}
	b := seenBoard(t, []string{"Fo", "oo"}, [2]int{0, 0})
	_, ok := b.deduce(make([]bool, 4))
	assert.False(t, ok, "no hidden unflagged cell")
}

// layouts calls f with every placement of b.mines mines on b's unrevealed
// cells that agrees with the numbers b shows: the hidden states the visible
// board allows.
func layouts(b *board, f func(mine []bool)) {
	var open []int
	for i, s := range b.state {
		if s != revealed {
			open = append(open, i)
		}
	}
	mine := make([]bool, b.n*b.n)
	var place func(from, left int)
	place = func(from, left int) {
		if left == 0 {
			for i, s := range b.state {
				if s != revealed {
					continue
				}
				var m int8
				for _, j := range b.neighbours(i) {
					if mine[j] {
						m++
					}
				}
				if m != b.count[i] {
					return
				}
			}
			f(mine)
			return
		}
		for k := from; k <= len(open)-left; k++ {
			mine[open[k]] = true
			place(k+1, left-1)
			mine[open[k]] = false
		}
	}
	place(0, b.mines)
}

// simpleRules returns, in reading order, the hidden unflagged cells that
// the single-number rules prove safe, and the cells they prove mines: the
// unrevealed neighbours of a number equal to their count are mines; the
// other hidden neighbours of a number equal to its count of those mines
// are safe. Written apart from deduce, from the rules' statement.
func simpleRules(b *board) (safe []int, sure map[int]bool) {
	sure = map[int]bool{}
	for i, s := range b.state {
		if s != revealed {
			continue
		}
		var u []int
		for _, j := range b.neighbours(i) {
			if b.state[j] != revealed {
				u = append(u, j)
			}
		}
		if len(u) == int(b.count[i]) {
			for _, j := range u {
				sure[j] = true
			}
		}
	}
	for i, s := range b.state {
		if s != revealed {
			continue
		}
		var known int
		var rest []int
		for _, j := range b.neighbours(i) {
			switch {
			case b.state[j] == revealed:
			case sure[j]:
				known++
			case b.state[j] == hidden:
				rest = append(rest, j)
			}
		}
		if known == int(b.count[i]) {
			safe = append(safe, rest...)
		}
	}
	slices.Sort(safe)
	return slices.Compact(safe), sure
}

// TestSampleDeduceReadsTheVisibleBoardOnly plays 200 easy and 200 random
// games with sample: deduce and checks every move against simpleRules and
// the hidden states the visible board allows (all of them enumerated): the
// move is the first cell the rules prove safe where there is one, and that
// cell is safe under every layout; it is never a cell the rules prove a
// mine (a guess may still be a mine in every layout: the rules do not see
// what the mines' total or two numbers together prove); and a twin board with the same visible state but another allowed layout
// of mines (its hidden counts recomputed) gets the same move.
func TestSampleDeduceReadsTheVisibleBoardOnly(t *testing.T) {
	deduced, guesses := 0, 0
	for _, id := range []string{"game:Minesweeper-v0-easy", "game:Minesweeper-v0-random"} {
		e := make1(t, id, envs.With(envs.SampleOption, "deduce"))
		for seed := range uint64(200) {
			_, _, err := e.Reset(seed)
			require.NoError(t, err)
			r := rand.New(rand.NewPCG(seed, 11))
			for turn := 1; ; turn++ {
				b := e.b
				a := e.SampleAction(r)
				if turn == 1 {
					require.Equal(t, envs.Boxed(fmt.Sprintf("reveal %d %d", b.n/2, b.n/2)), a)
				} else if b.n*b.n-b.nOpen <= 16 { // enumerable in a few ms
					checkDeduced(t, b, a, seed, turn, &deduced, &guesses)
				}
				st := step(t, e, a)
				require.Nil(t, st.Info[envs.InfoInvalid], "seed %d turn %d: %s", seed, turn, st.Obs)
				if st.Done() {
					break
				}
			}
		}
	}
	t.Logf("%d moves deduced, %d guesses", deduced, guesses)
	assert.Greater(t, deduced, 500)
	assert.Greater(t, guesses, 50)
}

func checkDeduced(t *testing.T, b *board, a string, seed uint64, turn int, deduced, guesses *int) {
	t.Helper()
	mv, err := parseAction(a)
	require.NoError(t, err)
	require.False(t, mv.flag)
	cell := mv.r*b.n + mv.c
	require.Equal(t, hidden, b.state[cell])
	var all [][]bool
	layouts(b, func(m []bool) { all = append(all, slices.Clone(m)) })
	require.NotEmpty(t, all, "seed %d turn %d: the true layout is allowed", seed, turn)
	mineIn := 0
	for _, m := range all {
		if m[cell] {
			mineIn++
		}
	}
	safe, sure := simpleRules(b)
	require.False(t, sure[cell], "seed %d turn %d: %s is proven a mine", seed, turn, a)
	if len(safe) > 0 {
		*deduced++
		require.Equal(t, safe[0], cell, "seed %d turn %d", seed, turn)
		require.Zero(t, mineIn, "seed %d turn %d: a deduced cell is safe in every layout", seed, turn)
	} else {
		*guesses++
	}
	// A twin with the same visible board and the allowed layout least like
	// the true one.
	twin := *b
	twin.mine, twin.count, twin.state = nil, nil, slices.Clone(b.state)
	best := -1
	for _, m := range all {
		if d := diff(m, b.mine); d > best {
			best, twin.mine = d, slices.Clone(m)
		}
	}
	twin.count = make([]int8, len(b.count))
	twin.computeCounts()
	for i, s := range b.state {
		if s == revealed {
			require.Equal(t, b.count[i], twin.count[i])
		}
	}
	got, ok := twin.deduce(make([]bool, b.n*b.n))
	require.True(t, ok)
	require.Equal(t, cell, got, "seed %d turn %d: the move depends on hidden state", seed, turn)
}

func diff(a, b []bool) int {
	d := 0
	for i := range a {
		if a[i] != b[i] {
			d++
		}
	}
	return d
}

// TestSampleDeduceWins: the teacher wins most easy games (0.645 of the 200
// held-out seeds cmd/eval plays by default; at least half of these), so it
// is worth imitating; the default draw wins about one in two hundred.
func TestSampleDeduceWins(t *testing.T) {
	e := make1(t, "game:Minesweeper-v0-easy", envs.With(envs.SampleOption, "deduce"))
	won := 0
	for seed := range uint64(300) {
		_, _, err := e.Reset(seed)
		require.NoError(t, err)
		r := rand.New(rand.NewPCG(seed, 1))
		for {
			st := step(t, e, e.SampleAction(r))
			if st.Done() {
				if st.Info[envs.InfoSuccess] == true {
					won++
				}
				break
			}
		}
	}
	assert.Greater(t, won, 150)
}

// TestSampleOptionDefault: sample absent and sample: any draw the same
// moves (the draw the golden transcripts in envs/builtin pin), which are
// not the teacher's; a value other than any or deduce is an error naming
// the allowed ones.
func TestSampleOptionDefault(t *testing.T) {
	var got [3][]string
	for k, opts := range [][]envs.Option{nil, {envs.With(envs.SampleOption, "any")}, {envs.With(envs.SampleOption, "deduce")}} {
		e := make1(t, "game:Minesweeper-v0-easy", opts...)
		for seed := range uint64(50) {
			_, _, err := e.Reset(seed)
			require.NoError(t, err)
			r := rand.New(rand.NewPCG(seed, 3))
			for turn := 0; turn < 3; turn++ { // the same three cells, whatever they do
				a := []string{"reveal 2 2", "flag 0 0", "reveal 4 4"}[turn]
				got[k] = append(got[k], e.SampleAction(r))
				if step(t, e, envs.Boxed(a)).Done() {
					break
				}
			}
		}
	}
	require.Equal(t, got[0], got[1])
	differ := 0
	for i := range got[0] {
		if got[0][i] != got[2][i] {
			differ++
		}
	}
	assert.Greater(t, differ, len(got[0])/2, "the default draw is random, not the teacher's")
	_, err := registry(t).Make("game:Minesweeper-v0-easy", envs.With(envs.SampleOption, "single"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), fmt.Sprintf(`%s = "single"`, envs.SampleOption))
	assert.Contains(t, err.Error(), "any, deduce")
}
