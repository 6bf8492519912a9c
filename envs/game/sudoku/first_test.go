package sudoku

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gemgo/gemgo/envs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// firstGuessOf computes sample: first's move from an observation's text
// alone: the first cell in reading order shown '.', else the first shown
// 'x', with the smallest number that no filled cell of its row, column or
// box shows.
func firstGuessOf(t *testing.T, obs string) string {
	rows := strings.Split(gridOf(obs), "\n")[1:]
	var g [4][4]byte
	for r, line := range rows {
		require.Len(t, line, 9, "row %q", line)
		for c := range 4 {
			g[r][c] = line[2+2*c]
		}
	}
	for _, mark := range []byte{'.', 'x'} {
		for r := range 4 {
			for c := range 4 {
				if g[r][c] != mark {
					continue
				}
				for d := byte('1'); d <= '4'; d++ {
					fits := true
					for k := range 4 {
						if g[r][k] == d || g[k][c] == d || g[r/2*2+k/2][c/2*2+k%2] == d {
							fits = false
						}
					}
					if fits {
						return string([]byte{byte('1' + r), ' ', byte('1' + c), ' ', d})
					}
				}
				t.Fatalf("no number fits cell %d %d:\n%s", r+1, c+1, gridOf(obs))
			}
		}
	}
	t.Fatalf("no empty cell:\n%s", gridOf(obs))
	return ""
}

// TestSampleFirstIsAFunctionOfTheObservation: over 300 easy games (both
// marks on) in which 20% of the turns name a random filled cell and 20%
// play a wrong number on a random empty cell, sample: first's move is
// always the one firstGuessOf reads off the observation's text, whatever
// the random stream; it is accepted exactly when it is the solution's
// number, and a rejected guess marks its cell, so the next guess is on
// another cell (or the game ends).
func TestSampleFirstIsAFunctionOfTheObservation(t *testing.T) {
	e := make1(t, "game:Sudoku-v0-easy", envs.With("mark_rejected", true), envs.With("mark_filled", true), envs.With(envs.SampleOption, "first"))
	guessesRejected := 0
	for seed := range uint64(300) {
		obs, _, err := e.Reset(seed)
		require.NoError(t, err)
		r := rand.New(rand.NewPCG(seed, 13))
		for turn := 1; ; turn++ {
			want := envs.Boxed(firstGuessOf(t, obs))
			a := e.SampleAction(r)
			require.Equal(t, want, a, "seed %d turn %d:\n%s", seed, turn, gridOf(obs))
			require.Equal(t, want, e.SampleAction(rand.New(rand.NewPCG(seed, uint64(turn)))), "another stream")
			var own action
			var st envs.Step
			switch u := r.Float64(); {
			case u < 0.2:
				i := r.IntN(16)
				for e.grid[i] == 0 {
					i = (i + 1) % 16 // the next filled cell
				}
				st = step(t, e, envs.Boxed(action{i/4 + 1, i%4 + 1, 1 + r.IntN(4)}.String()))
			case u < 0.4:
				_, wrong := wrongNumber(e, r)
				st = step(t, e, wrong)
			default:
				var err error
				own, err = parseAction(a)
				require.NoError(t, err)
				i := (own.row-1)*4 + own.col - 1
				right := int(e.sol[i]) == own.num
				st = step(t, e, a)
				require.Equal(t, right, st.Info[envs.InfoInvalid] != true, "seed %d turn %d: %s", seed, turn, st.Obs)
				if !right && !st.Done() {
					guessesRejected++
					row := strings.Split(gridOf(st.Obs), "\n")[own.row]
					require.Equal(t, byte('x'), row[2*own.col], "seed %d turn %d: the rejected guess marks its cell", seed, turn)
					require.NotEqual(t, a, e.SampleAction(r), "seed %d turn %d: the next guess moves on", seed, turn)
				}
			}
			if st.Done() {
				break
			}
			obs = st.Obs
		}
	}
	assert.Greater(t, guessesRejected, 100, "wrong guesses occur")
}

// TestSampleFirstWinsHeldOut plays sample: first alone on 300 of the
// trainer's held-out easy seeds (from 2^40): it wins all 300 in 3,111
// turns (10.37 a game): 2,838 turns for the empty cells and 273 wrong guesses,
// each answered by a guess on another cell.
func TestSampleFirstWinsHeldOut(t *testing.T) {
	e := make1(t, "game:Sudoku-v0-easy", envs.With("mark_rejected", true), envs.With(envs.SampleOption, "first"))
	r := rand.New(rand.NewPCG(1, 1))
	wins, turns, empty := 0, 0, 0
	for seed := range uint64(300) {
		_, info, err := e.Reset(1<<40 + seed)
		require.NoError(t, err)
		empty += info["empty_cells"].(int)
		for {
			st := step(t, e, e.SampleAction(r))
			turns++
			if st.Done() {
				if st.Info[envs.InfoSuccess] == true {
					wins++
				}
				break
			}
		}
	}
	assert.Equal(t, 300, wins)
	assert.Equal(t, 3111, turns)
	assert.Equal(t, 273, turns-empty, "wrong guesses")
}

// TestSampleFirstNeedsMarks: sample: first without mark_rejected is an
// error that says why and what to set.
func TestSampleFirstNeedsMarks(t *testing.T) {
	_, err := registry(t).Make("game:Sudoku-v0-easy", envs.With(envs.SampleOption, "first"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "option sample = first needs mark_rejected = true")
	e := make1(t, "game:Sudoku-v0-easy", envs.With(envs.SampleOption, "first"), envs.With("mark_rejected", true))
	require.True(t, e.first)
	require.False(t, e.single)
}
