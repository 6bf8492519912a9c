package sudoku

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gemgo/gemgo/envs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// grid returns the last five lines of an observation: the rendered grid.
func gridOf(obs string) string {
	lines := strings.Split(obs, "\n")
	return strings.Join(lines[len(lines)-5:], "\n")
}

// TestMarkRejectedShowsTheRejectedCells plays easy seed 0, whose grid is
//
//	  1 2 3 4
//	1 . 2 . .
//	2 . 1 . 2
//	3 . . 4 1
//	4 . . . 3
//
// (solution rows 3214, 4132, 2341, 1423; the first naked single 1 4 4).
// With mark_rejected a clash and a number that leaves no solution each
// mark their cell 'x', a filled cell marks nothing, the single player then
// skips the marked cells, and a placement clears the marks; the same moves
// without the option show GEM's grid, no marks.
func TestMarkRejectedShowsTheRejectedCells(t *testing.T) {
	e := make1(t, "game:Sudoku-v0-easy", envs.With("mark_rejected", true), envs.With(envs.SampleOption, "single"))
	plain := make1(t, "game:Sudoku-v0-easy")
	_, _, err := e.Reset(0)
	require.NoError(t, err)
	_, _, err = plain.Reset(0)
	require.NoError(t, err)
	r := rand.New(rand.NewPCG(1, 2))
	require.Equal(t, `\boxed{1 4 4}`, e.SampleAction(r))

	moves := []struct{ action, msg, grid string }{
		{`\boxed{1 4 1}`, "Invalid move: 1 is already in that column.",
			"  1 2 3 4\n1 . 2 . x\n2 . 1 . 2\n3 . . 4 1\n4 . . . 3"},
		{`\boxed{1 2 4}`, "Invalid move: row 1 column 2 is already filled.",
			"  1 2 3 4\n1 . 2 . x\n2 . 1 . 2\n3 . . 4 1\n4 . . . 3"},
		{`\boxed{2 1 3}`, "Invalid move: 3 at row 2 column 1 leaves the puzzle with no solution.",
			"  1 2 3 4\n1 . 2 . x\n2 x 1 . 2\n3 . . 4 1\n4 . . . 3"},
		{`\boxed{2 3 3}`, "Placed 3 at row 2 column 3.",
			"  1 2 3 4\n1 . 2 . .\n2 . 1 3 2\n3 . . 4 1\n4 . . . 3"},
	}
	for i, m := range moves {
		if i == 1 {
			// (1, 4) is marked: the next naked single in reading order.
			require.Equal(t, `\boxed{2 3 3}`, e.SampleAction(r))
		}
		st := step(t, e, m.action)
		require.Equal(t, m.msg+"\n"+m.grid, st.Obs, "move %d", i)
		st = step(t, plain, m.action)
		require.Equal(t, m.msg+"\n"+strings.ReplaceAll(m.grid, "x", "."), st.Obs, "move %d without the option", i)
	}
	// The marks are gone, and the 3 placed at (2, 3) leaves (1, 3) one
	// number: the first naked single in reading order.
	require.Equal(t, `\boxed{1 3 1}`, e.SampleAction(r))
}

// singleOf computes the single player's move from an observation's text
// alone: the first cell in reading order shown '.' (not 'x') that exactly
// one number fits, else the first such cell shown 'x'. A row's cells are
// its characters 2, 4, 6 and 8 (mark_filled's '!' replaces a space).
func singleOf(t *testing.T, obs string) (string, bool) {
	rows := strings.Split(gridOf(obs), "\n")[1:]
	var g [4][4]byte
	for r, line := range rows {
		require.Len(t, line, 9, "row %q", line)
		for c := range 4 {
			g[r][c] = line[2+2*c]
		}
	}
	fits := func(r, c int, d byte) bool {
		for k := range 4 {
			if g[r][k] == d || g[k][c] == d || g[r/2*2+k/2][c/2*2+k%2] == d {
				return false
			}
		}
		return true
	}
	for _, mark := range []byte{'.', 'x'} {
		for r := range 4 {
			for c := range 4 {
				if g[r][c] != mark {
					continue
				}
				var only []byte
				for d := byte('1'); d <= '4'; d++ {
					if fits(r, c, d) {
						only = append(only, d)
					}
				}
				if len(only) == 1 {
					return string([]byte{byte('1' + r), ' ', byte('1' + c), ' ', only[0]}), true
				}
			}
		}
	}
	return "", false
}

// TestMarkRejectedSingleIsAFunctionOfTheObservation: over 300 easy games
// in which 40% of the turns play a wrong number on a random empty cell,
// the single player's move is always the one singleOf reads off the
// observation's text (so a policy that sees the grid can imitate it
// exactly, marks included), it is always accepted, the grid shows as 'x'
// exactly the empty cells rejected since the last placement, and the
// games with marks on single cells occur.
func TestMarkRejectedSingleIsAFunctionOfTheObservation(t *testing.T) {
	e := make1(t, "game:Sudoku-v0-easy", envs.With("mark_rejected", true), envs.With(envs.SampleOption, "single"))
	skipped := 0
	for seed := range uint64(300) {
		obs, _, err := e.Reset(seed)
		require.NoError(t, err)
		r := rand.New(rand.NewPCG(seed, 11))
		rejected := map[int]bool{}
		for turn := 1; ; turn++ {
			want, ok := singleOf(t, obs)
			require.True(t, ok, "seed %d turn %d", seed, turn)
			a := e.SampleAction(r)
			require.Equal(t, envs.Boxed(want), a, "seed %d turn %d:\n%s", seed, turn, gridOf(obs))
			if plainWant, _ := singleOf(t, strings.ReplaceAll(obs, "x", ".")); plainWant != want {
				skipped++
			}
			if r.Float64() < 0.4 {
				var i int
				i, a = wrongNumber(e, r)
				rejected[i] = true
			} else {
				clear(rejected)
			}
			st := step(t, e, a)
			require.Equal(t, len(rejected) > 0, st.Info[envs.InfoInvalid] == true, "seed %d turn %d", seed, turn)
			if st.Done() {
				break
			}
			obs = st.Obs
			shown := strings.Count(gridOf(obs), "x")
			require.Equal(t, len(rejected), shown, "seed %d turn %d:\n%s", seed, turn, gridOf(obs))
			for i := range rejected {
				row := strings.Fields(strings.Split(gridOf(obs), "\n")[1+i/4])
				require.Equal(t, "x", row[1+i%4], "seed %d turn %d cell %d", seed, turn, i)
			}
		}
	}
	assert.Greater(t, skipped, 100, "marks moved the single player's move")
}

// TestMarkRejectedOption: mark_rejected must be a boolean, and it is off
// by default (GEM's grid).
func TestMarkRejectedOption(t *testing.T) {
	require.False(t, make1(t, "game:Sudoku-v0-easy").mark)
	require.True(t, make1(t, "game:Sudoku-v0-hard", envs.With("mark_rejected", true)).mark)
	_, err := registry(t).Make("game:Sudoku-v0-easy", envs.With("mark_rejected", "often"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), `option mark_rejected = often: want true or false`)
}
