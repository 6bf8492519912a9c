package gamekit

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gemgo/gemgo/envs/core"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPickSingleLevelLeavesRNGAlone(t *testing.T) {
	a, b := rand.New(rand.NewPCG(1, 2)), rand.New(rand.NewPCG(1, 2))
	assert.Equal(t, "only", Pick(a, []string{"only"}))
	assert.Equal(t, b.Uint64(), a.Uint64(), "one level: no draw")
}

func TestPickDrawsEveryLevelAsIntN(t *testing.T) {
	levels := []int{10, 20, 30}
	seen := map[int]bool{}
	for seed := range uint64(200) {
		a, b := rand.New(rand.NewPCG(seed, 7)), rand.New(rand.NewPCG(seed, 7))
		got := Pick(a, levels)
		assert.Equal(t, levels[b.IntN(3)], got)
		seen[got] = true
	}
	assert.Len(t, seen, 3)
}

func TestParseWord(t *testing.T) {
	names := []string{"up", "down", "left", "right"}
	i, err := ParseWord(`I go \boxed{up} then \boxed{LEFT}`, names)
	require.NoError(t, err)
	assert.Equal(t, 2, i, "the last boxed answer counts")
	i, err = ParseWord(`\boxed{Right}`, names)
	require.NoError(t, err)
	assert.Equal(t, 3, i)
	_, err = ParseWord("left", names)
	require.EqualError(t, err, `no \boxed{...} found`)
	_, err = ParseWord(`\boxed{north}`, names)
	require.EqualError(t, err, `"north" is not a move: want up, down, left or right`)
	assert.Equal(t, "a", orList([]string{"a"}))
	assert.Equal(t, "a or b", orList([]string{"a", "b"}))
}

func FuzzParseWord(f *testing.F) {
	for _, s := range []string{`\boxed{up}`, `\boxed{}`, "", `\boxed{\boxed{down}}`, `\boxed{LeFt}`} {
		f.Add(s)
	}
	names := []string{"left", "right", "up", "down"}
	f.Fuzz(func(t *testing.T, s string) {
		i, err := ParseWord(s, names)
		if err != nil {
			return
		}
		content, ok := core.LastBoxed(s)
		require.True(t, ok)
		require.Equal(t, names[i], strings.ToLower(content))
	})
}
