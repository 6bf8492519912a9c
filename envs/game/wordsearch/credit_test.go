package wordsearch

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gemgo/gemgo/envs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEachWordOnOneLine: over thousands of seeds, no grid hides a word
// together with its reverse, and each hidden word spells on exactly one
// line. Before this held, easy seed 26 hid both GUM and MUG, and the GUM
// cells given backwards credited MUG, whose cells were never given (about
// one easy seed in 3,000).
func TestEachWordOnOneLine(t *testing.T) {
	for _, c := range []struct {
		level string
		seeds uint64
	}{{"easy", 6000}, {"hard", 1000}} {
		e := newEnv(t, Config{Level: c.level})
		for seed := range c.seeds {
			_, _, err := e.Reset(seed)
			require.NoError(t, err)
			g := e.Grid()
			for i, p := range g.Words {
				require.Equal(t, 1, g.Lines(p.Word), "%s seed %d: %s", c.level, seed, p.Word)
				for _, q := range g.Words[i+1:] {
					require.False(t, isReverse(p.Word, q.Word), "%s seed %d hides %s and %s", c.level, seed, p.Word, q.Word)
				}
			}
		}
	}
}

// TestCreditOnlyOwnCells plays a hand-made grid that hides GUM and MUG
// (which Generate never does): each word is credited only for its own two
// ends, and the GUM cells read backwards name GUM again, not MUG.
func TestCreditOnlyOwnCells(t *testing.T) {
	e := newEnv(t, Config{Level: "easy"})
	_, _, err := e.Reset(0)
	require.NoError(t, err)
	g := Grid{Size: 8, Letters: []byte(strings.Repeat("x", 64))}
	for _, p := range []Placement{
		{Word: "gum", Row: 5, Col: 4, Dir: Dir{1, 0}},
		{Word: "mug", Row: 0, Col: 7, Dir: Dir{1, 0}},
		{Word: "cat", Row: 0, Col: 0, Dir: Dir{0, 1}},
	} {
		g.put(p)
	}
	copy(g.Letters[7*8:], "cat") // CAT a second time, on no word's cells
	e.grid, e.found, e.left = g, make([]bool, 3), 3

	st := step(t, e, `\boxed{5 4 7 4}`)
	assert.InDelta(t, 1.0/3, st.Reward, 1e-12)
	assert.True(t, strings.HasPrefix(st.Obs, "Found GUM (1 of 3)."), st.Obs)

	st = step(t, e, `\boxed{7 4 5 4}`) // reads MUG, on GUM's cells
	assert.Equal(t, 0.0, st.Reward)
	assert.Equal(t, true, st.Info[envs.InfoInvalid])
	assert.True(t, strings.HasPrefix(st.Obs, "Invalid: GUM was already found. Left: MUG CAT."), st.Obs)

	st = step(t, e, `\boxed{7 0 7 2}`) // spells CAT, not where CAT is hidden
	assert.Equal(t, 0.0, st.Reward)
	assert.Nil(t, st.Info[envs.InfoInvalid])
	assert.True(t, strings.HasPrefix(st.Obs, "No hidden word from (7,0) to (7,2)."), st.Obs)

	for i, a := range []string{`\boxed{2 7 0 7}`, `\boxed{0 0 0 2}`} { // MUG's own cells, backwards; CAT's
		st = step(t, e, a)
		assert.InDelta(t, 1.0/3, st.Reward, 1e-12, a)
		assert.Equal(t, i == 1, st.Terminated, a)
	}
	assert.Equal(t, true, st.Info[envs.InfoSuccess])
}

func TestLines(t *testing.T) {
	g := Grid{Size: 4, Letters: []byte("" +
		"gumx" +
		"uxxm" +
		"mxxu" +
		"xpop")}
	for _, tc := range []struct {
		word string
		want int
	}{
		{"gum", 2},   // across row 0 and down column 0
		{"mug", 2},   // the same two lines, read backwards
		{"mu", 3},    // row 0 and column 0 backwards, column 3 forwards
		{"pop", 1},   // a palindrome on one line counts once
		{"zzz", 0},   // nowhere
		{"g", 0},     // one letter is no line
		{"gumxy", 0}, // longer than the grid
	} {
		assert.Equal(t, tc.want, g.Lines(tc.word), tc.word)
	}
	// Brute force over every pair of ends for two-letter words.
	for _, w := range []string{"xx", "ux", "mx", "po"} {
		want := 0
		for r1 := range 4 {
			for c1 := range 4 {
				for r2 := range 4 {
					for c2 := range 4 {
						if r1*4+c1 >= r2*4+c2 {
							continue // each unordered pair of ends once
						}
						line, ok := g.Read(nil, r1, c1, r2, c2)
						if ok && len(line) == 2 && (string(line) == w || isReverse(string(line), w)) {
							want++
						}
					}
				}
			}
		}
		assert.Equal(t, want, g.Lines(w), fmt.Sprintf("%s: lines of two cells", w))
	}
}
