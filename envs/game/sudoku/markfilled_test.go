package sudoku

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gemgo/gemgo/envs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMarkFilledShowsTheNamedFilledCells plays easy seed 0 (the grid of
// TestMarkRejectedShowsTheRejectedCells). With mark_filled a move on a
// filled cell puts '!' in place of the space before it, the marks add up
// until a placement clears them, a move on an empty cell marks nothing
// with mark_filled alone, and the single player's move is the one it
// plays without the marks; the same moves without the option show GEM's
// grid.
func TestMarkFilledShowsTheNamedFilledCells(t *testing.T) {
	e := make1(t, "game:Sudoku-v0-easy", envs.With("mark_filled", true), envs.With(envs.SampleOption, "single"))
	plain := make1(t, "game:Sudoku-v0-easy")
	_, _, err := e.Reset(0)
	require.NoError(t, err)
	_, _, err = plain.Reset(0)
	require.NoError(t, err)
	r := rand.New(rand.NewPCG(1, 2))

	moves := []struct{ action, msg, grid string }{
		{`\boxed{1 2 4}`, "Invalid move: row 1 column 2 is already filled.",
			"  1 2 3 4\n1 .!2 . .\n2 . 1 . 2\n3 . . 4 1\n4 . . . 3"},
		{`\boxed{1 4 1}`, "Invalid move: 1 is already in that column.",
			"  1 2 3 4\n1 .!2 . .\n2 . 1 . 2\n3 . . 4 1\n4 . . . 3"},
		{`\boxed{3 4 2}`, "Invalid move: row 3 column 4 is already filled.",
			"  1 2 3 4\n1 .!2 . .\n2 . 1 . 2\n3 . . 4!1\n4 . . . 3"},
		{`\boxed{2 2 1}`, "Invalid move: row 2 column 2 is already filled.",
			"  1 2 3 4\n1 .!2 . .\n2 .!1 . 2\n3 . . 4!1\n4 . . . 3"},
		{`\boxed{1 4 4}`, "Placed 4 at row 1 column 4.",
			"  1 2 3 4\n1 . 2 . 4\n2 . 1 . 2\n3 . . 4 1\n4 . . . 3"},
		{`\boxed{4 4 3}`, "Invalid move: row 4 column 4 is already filled.",
			"  1 2 3 4\n1 . 2 . 4\n2 . 1 . 2\n3 . . 4 1\n4 . . .!3"},
	}
	for i, m := range moves {
		if i < 4 {
			require.Equal(t, `\boxed{1 4 4}`, e.SampleAction(r), "move %d", i)
		}
		st := step(t, e, m.action)
		require.Equal(t, m.msg+"\n"+m.grid, st.Obs, "move %d", i)
		require.Len(t, m.grid, 49, "the marks keep the grid's length")
		st = step(t, plain, m.action)
		require.Equal(t, m.msg+"\n"+strings.ReplaceAll(m.grid, "!", " "), st.Obs, "move %d without the option", i)
	}
}

// TestMarkFilledSingleIsAFunctionOfTheObservation: over 300 easy games
// with both marks on, in which 25% of the turns name a random filled cell
// and 25% play a wrong number on a random empty cell, the single player's
// move is always the one singleOf reads off the observation's text, it is
// always accepted, and the grid shows '!' before exactly the filled cells
// named since the last placement and 'x' on exactly the empty cells
// rejected since then.
func TestMarkFilledSingleIsAFunctionOfTheObservation(t *testing.T) {
	e := make1(t, "game:Sudoku-v0-easy", envs.With("mark_rejected", true), envs.With("mark_filled", true), envs.With(envs.SampleOption, "single"))
	marksSeen := 0
	for seed := range uint64(300) {
		obs, _, err := e.Reset(seed)
		require.NoError(t, err)
		r := rand.New(rand.NewPCG(seed, 12))
		rejected, named := map[int]bool{}, map[int]bool{}
		for turn := 1; ; turn++ {
			want, ok := singleOf(t, obs)
			require.True(t, ok, "seed %d turn %d", seed, turn)
			a := e.SampleAction(r)
			require.Equal(t, envs.Boxed(want), a, "seed %d turn %d:\n%s", seed, turn, gridOf(obs))
			switch u := r.Float64(); {
			case u < 0.25:
				var filled []int
				for i, v := range e.grid {
					if v != 0 {
						filled = append(filled, i)
					}
				}
				i := filled[r.IntN(len(filled))]
				a = envs.Boxed(action{i/4 + 1, i%4 + 1, 1 + r.IntN(4)}.String())
				named[i] = true
			case u < 0.5:
				var i int
				i, a = wrongNumber(e, r)
				rejected[i] = true
			default:
				clear(rejected)
				clear(named)
			}
			st := step(t, e, a)
			require.Equal(t, len(rejected)+len(named) > 0, st.Info[envs.InfoInvalid] == true, "seed %d turn %d", seed, turn)
			if st.Done() {
				break
			}
			obs = st.Obs
			g := gridOf(obs)
			require.Len(t, g, 49, "seed %d turn %d", seed, turn)
			rows := strings.Split(g, "\n")[1:]
			for i := range 16 {
				sep, cell := rows[i/4][1+2*(i%4)], rows[i/4][2+2*(i%4)]
				assert.Equal(t, named[i], sep == '!', "seed %d turn %d cell %d:\n%s", seed, turn, i, g)
				assert.Equal(t, rejected[i], cell == 'x', "seed %d turn %d cell %d:\n%s", seed, turn, i, g)
			}
			if len(named) > 0 {
				marksSeen++
			}
		}
	}
	assert.Greater(t, marksSeen, 300, "grids with '!' marks occur")
}

// TestMarkFilledOption: mark_filled must be a boolean, and it is off by
// default (GEM's grid).
func TestMarkFilledOption(t *testing.T) {
	require.False(t, make1(t, "game:Sudoku-v0-easy").markHit)
	require.True(t, make1(t, "game:Sudoku-v0-hard", envs.With("mark_filled", true)).markHit)
	_, err := registry(t).Make("game:Sudoku-v0-easy", envs.With("mark_filled", "yes please"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), `option mark_filled = yes please: want true or false`)
}
