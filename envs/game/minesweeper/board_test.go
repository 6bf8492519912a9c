package minesweeper

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fixedBoard returns an n×n board with mines at the given (r, c) cells.
func fixedBoard(n int, mines ...[2]int) *board {
	b := newBoard(n, len(mines))
	for _, m := range mines {
		b.mine[m[0]*n+m[1]] = true
	}
	b.computeCounts()
	return b
}

func TestCountsAndRender(t *testing.T) {
	b := fixedBoard(3, [2]int{0, 0}, [2]int{2, 2})
	want := []int8{
		0, 1, 0,
		1, 2, 1,
		0, 1, 0,
	}
	// Mines' own counts are not shown; check the safe cells only.
	for i, w := range want {
		if !b.mine[i] {
			assert.Equal(t, w, b.count[i], "cell %d", i)
		}
	}
	b.state[4] = revealed
	b.state[2] = flagged
	assert.Equal(t, "  0 1 2\n0 . . F\n1 . 2 .\n2 . . .", string(b.render(nil, false)))
	assert.Equal(t, "  0 1 2\n0 * . F\n1 . 2 .\n2 . . *", string(b.render(nil, true)))
}

func TestFloodFillOpensZeroRegion(t *testing.T) {
	// One mine in the corner: revealing the far corner opens every safe cell
	// except the three that touch the mine only through the flood frontier.
	b := fixedBoard(5, [2]int{0, 0})
	n := b.reveal(4*5 + 4)
	assert.Equal(t, 24, n, "a single corner mine: every safe cell connects through zeros")
	assert.True(t, b.won())

	// A wall of mines on column 2 splits the board: the fill stops at the
	// numbered cells beside it and never crosses.
	b = fixedBoard(5, [2]int{0, 2}, [2]int{1, 2}, [2]int{2, 2}, [2]int{3, 2}, [2]int{4, 2})
	n = b.reveal(0)
	assert.Equal(t, 10, n, "the left two columns")
	assert.Equal(t, "  0 1 2 3 4\n0 0 2 . . .\n1 0 3 . . .\n2 0 3 . . .\n3 0 3 . . .\n4 0 2 . . .", string(b.render(nil, false)))
	assert.False(t, b.won())

	// Flags stop the fill.
	b = fixedBoard(5, [2]int{0, 0})
	b.state[2*5+2] = flagged
	n = b.reveal(4*5 + 4)
	assert.Equal(t, 23, n)
	assert.Equal(t, flagged, b.state[2*5+2])
}

func TestPlaceMinesAvoidsFirstNeighbourhood(t *testing.T) {
	for seed := range uint64(2000) {
		rng := rand.New(rand.NewPCG(seed, 1))
		n := 5 + int(seed%4)
		b := newBoard(n, n*n/5)
		r, c := rng.IntN(n), rng.IntN(n)
		b.placeMines(rng, r, c)
		total := 0
		for i, m := range b.mine {
			if !m {
				continue
			}
			total++
			ri, ci := i/n, i%n
			require.False(t, ri >= r-1 && ri <= r+1 && ci >= c-1 && ci <= c+1,
				"seed %d: mine at (%d,%d) next to first reveal (%d,%d)", seed, ri, ci, r, c)
		}
		require.Equal(t, n*n/5, total, "seed %d", seed)
		require.Zero(t, b.count[r*n+c], "the first reveal is a zero and opens a region")
	}
}
