package game2048

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gemgo/gemgo/envs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAlternateMoves pins SampleAlternate's move on hand-built boards after
// each last move (and at an episode's first turn).
func TestAlternateMoves(t *testing.T) {
	open := board{ // every move changes it
		0, 0, 0, 0,
		0, 2, 0, 0,
		0, 0, 0, 0,
		0, 0, 4, 0,
	}
	downOnly := board{ // down changes nothing; left does
		0, 0, 0, 0,
		0, 0, 0, 0,
		0, 0, 0, 0,
		0, 2, 0, 4,
	}
	leftStuck := board{ // left and down change nothing: right does
		0, 0, 0, 0,
		0, 0, 0, 0,
		0, 0, 0, 0,
		2, 4, 0, 0,
	}
	onlyUp := board{
		0, 0, 0, 0,
		2, 4, 2, 4,
		4, 2, 4, 2,
		2, 4, 2, 4,
	}
	for _, c := range []struct {
		name  string
		b     board
		last  dir
		asked bool
		want  dir
	}{
		{"the first turn: down", open, 0, false, down},
		{"after down: left", open, down, true, left},
		{"after left: down", open, left, true, down},
		{"after right: down", open, right, true, down},
		{"after up: down", open, up, true, down},
		{"after left, down changes nothing: left", downOnly, left, true, left},
		{"after down, left changes: left", downOnly, down, true, left},
		{"after down, left and down change nothing: right", leftStuck, down, true, right},
		{"after left, down and left change nothing: right", leftStuck, left, true, right},
		{"only up changes the board", onlyUp, down, true, up},
	} {
		got, ok := c.b.scripted(SampleAlternate, c.last, c.asked)
		require.True(t, ok, c.name)
		assert.Equal(t, c.want, got, c.name)
	}
}

// TestAlternateReadsTheObservation plays easy games with a mix of
// SampleAlternate's moves and random ones (invalid ones among them), and
// checks that its move is a function of what the policy reads: the word
// before the board's last "." in the feedback line (the move asked for)
// and the board, or the board alone at the first turn. An invalid move
// counts as asked: the next move alternates from it.
func TestAlternateReadsTheObservation(t *testing.T) {
	e := make1(t, "game:Game2048-v0-easy", envs.With(envs.SampleOption, "alternate"))
	r := rand.New(rand.NewPCG(3, 4))
	seen := map[string]string{}
	var invalid, first int
	for seed := range uint64(100) {
		obs, _, err := e.Reset(seed)
		require.NoError(t, err)
		for turn := 0; ; turn++ {
			a := e.SampleAction(r)
			key := observed(t, obs, turn == 0)
			if prev, ok := seen[key]; ok {
				require.Equal(t, prev, a, "two moves for one observation:\n%s", key)
			}
			seen[key] = a
			if turn == 0 && e.b.legal(down) {
				first++
				assert.Equal(t, envs.Boxed("down"), a, "the first turn plays down where it can")
			}
			if r.IntN(3) == 0 { // play a random move instead, not imitated
				a = envs.Boxed(dir(r.IntN(4)).String())
			}
			st := step(t, e, a)
			if st.Info[envs.InfoInvalid] == true {
				invalid++
			}
			if st.Done() {
				break
			}
			obs = st.Obs
		}
	}
	assert.Greater(t, invalid, 100, "the games met invalid moves")
	assert.Greater(t, first, 50, "first turns where down changes the board")
}

// observed is the part of an observation SampleAlternate's move depends
// on: the feedback line's move word (none at the first turn) and the board.
func observed(t *testing.T, obs string, first bool) string {
	t.Helper()
	lines := strings.Split(obs, "\n")
	require.GreaterOrEqual(t, len(lines), 5)
	board := strings.Join(lines[len(lines)-4:], "\n")
	if first {
		return "first\n" + board
	}
	words := strings.Fields(strings.TrimSuffix(lines[len(lines)-5], "."))
	return words[len(words)-1] + "\n" + board
}
