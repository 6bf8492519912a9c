package game2048

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gemgo/gemgo/envs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLastMovePlayers pins SampleAlternate's and SampleRotate's moves on
// hand-built boards after each last move (and at an episode's first turn).
func TestLastMovePlayers(t *testing.T) {
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
		name              string
		b                 board
		last              dir
		asked             bool
		alternate, rotate dir
	}{
		{"the first turn: down", open, 0, false, down, down},
		{"after down", open, down, true, left, right},
		{"after left", open, left, true, down, down},
		{"after right", open, right, true, down, up},
		{"after up", open, up, true, down, left},
		{"after left, down changes nothing", downOnly, left, true, left, left},
		{"after down, down changes nothing", downOnly, down, true, left, right},
		{"after up, down changes nothing", downOnly, up, true, left, left},
		{"after down, left and down change nothing", leftStuck, down, true, right, right},
		{"after left, down and left change nothing", leftStuck, left, true, right, right},
		{"after right, down and left change nothing", leftStuck, right, true, right, up},
		{"only up changes the board", onlyUp, down, true, up, up},
	} {
		for _, p := range []struct {
			s    Sample
			want dir
		}{{SampleAlternate, c.alternate}, {SampleRotate, c.rotate}} {
			got, ok := c.b.scripted(p.s, c.last, c.asked)
			require.True(t, ok, "%s: %s", c.name, p.s)
			assert.Equal(t, p.want, got, "%s: %s", c.name, p.s)
		}
	}
}

// TestLastMovePlayersReadTheObservation plays easy games with a mix of
// SampleAlternate's (SampleRotate's) moves and random ones, invalid ones
// among them, and checks that its move is a function of what the policy
// reads: the last word of the feedback line (the move asked for) and the
// board, or the board alone at the first turn. An invalid move counts as
// asked: the next move follows from it.
func TestLastMovePlayersReadTheObservation(t *testing.T) {
	for _, s := range []Sample{SampleAlternate, SampleRotate} {
		readsTheObservation(t, s)
	}
}

func readsTheObservation(t *testing.T, s Sample) {
	e := make1(t, "game:Game2048-v0-easy", envs.With(envs.SampleOption, string(s)))
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
				require.Equal(t, prev, a, "%s: two moves for one observation:\n%s", s, key)
			}
			seen[key] = a
			if turn == 0 && e.b.legal(down) {
				first++
				assert.Equal(t, envs.Boxed("down"), a, "%s: the first turn plays down where it can", s)
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
	assert.Greater(t, invalid, 100, "%s: the games met invalid moves", s)
	assert.Greater(t, first, 50, "%s: first turns where down changes the board", s)
	assert.Greater(t, len(seen), 1000, "%s: observations seen", s)
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
