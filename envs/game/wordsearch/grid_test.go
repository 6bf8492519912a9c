package wordsearch

import (
	"math/rand/v2"
	"testing"

	"github.com/gemgo/gemgo/envs/game/words"
	"github.com/stretchr/testify/require"
)

// checkGrid asserts that every placed word reads in the grid, forwards from
// its first cell and backwards from its last, and that the words differ.
func checkGrid(t *testing.T, g Grid, n int, dirs []Dir) {
	t.Helper()
	require.Len(t, g.Words, n)
	require.Len(t, g.Letters, g.Size*g.Size)
	for _, l := range g.Letters {
		require.True(t, l >= 'a' && l <= 'z', "cell %q", l)
	}
	seen := map[string]bool{}
	for _, p := range g.Words {
		require.False(t, seen[p.Word], "word %s twice", p.Word)
		seen[p.Word] = true
		require.Contains(t, dirs, p.Dir)
		er, ec := p.End()
		fwd, ok := g.Read(nil, p.Row, p.Col, er, ec)
		require.True(t, ok)
		require.Equal(t, p.Word, string(fwd))
		back, ok := g.Read(nil, er, ec, p.Row, p.Col)
		require.True(t, ok)
		for i := range back {
			require.Equal(t, p.Word[len(p.Word)-1-i], back[i])
		}
	}
}

func TestGeneratedWordsAreReadable(t *testing.T) {
	for _, level := range []string{"easy", "hard"} {
		ss, err := settings(level)
		require.NoError(t, err)
		s := ss[0]
		var pool []string
		for n := s.MinLen; n <= s.MaxLen; n++ {
			pool = append(pool, words.Common().OfLength(n)...)
		}
		dirsUsed := map[Dir]bool{}
		for seed := range uint64(300) {
			g, err := Generate(rand.New(rand.NewPCG(seed, 1)), pool, s.Size, s.Words, s.Dirs)
			require.NoError(t, err)
			require.Equal(t, s.Size, g.Size)
			checkGrid(t, g, s.Words, s.Dirs)
			for _, p := range g.Words {
				dirsUsed[p.Dir] = true
				require.GreaterOrEqual(t, len(p.Word), s.MinLen)
				require.LessOrEqual(t, len(p.Word), s.MaxLen)
			}
		}
		require.Len(t, dirsUsed, len(s.Dirs), "level %s: every direction occurs", level)
	}
}

func TestGenerateImpossible(t *testing.T) {
	_, err := Generate(rand.New(rand.NewPCG(1, 1)), []string{"abcdef"}, 4, 1, All())
	require.ErrorIs(t, err, ErrNoGrid)
	_, err = Generate(rand.New(rand.NewPCG(1, 1)), []string{"cat", "dog"}, 8, 3, All())
	require.ErrorIs(t, err, ErrNoGrid, "three distinct words from two")
}

func TestRead(t *testing.T) {
	g := Grid{Size: 3, Letters: []byte("abcdefghi")}
	for _, tc := range []struct {
		r1, c1, r2, c2 int
		want           string
		ok             bool
	}{
		{0, 0, 0, 2, "abc", true},
		{0, 2, 0, 0, "cba", true},
		{0, 0, 2, 2, "aei", true},
		{2, 0, 0, 2, "gec", true},
		{1, 1, 1, 1, "e", true},
		{0, 0, 1, 2, "", false}, // not a line
		{0, 0, 0, 3, "", false}, // outside
		{-1, 0, 0, 0, "", false},
	} {
		got, ok := g.Read(nil, tc.r1, tc.c1, tc.r2, tc.c2)
		require.Equal(t, tc.ok, ok, "%+v", tc)
		require.Equal(t, tc.want, string(got), "%+v", tc)
	}
}
