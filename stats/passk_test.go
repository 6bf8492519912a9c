package stats

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestPassAtKHandComputed(t *testing.T) {
	for _, c := range []struct {
		n, c, k int
		want    float64
	}{
		{5, 0, 1, 0},
		{5, 5, 1, 1},
		{5, 1, 1, 0.2},             // pass@1 = c/n
		{5, 2, 2, 0.7},             // 1 − C(3,2)/C(5,2) = 1 − 3/10
		{4, 1, 2, 0.5},             // 1 − C(3,2)/C(4,2) = 1 − 3/6
		{10, 3, 5, 1 - 21.0/252.0}, // 1 − C(7,5)/C(10,5)
		{3, 2, 2, 1},               // n − c < k: every draw of 2 holds a success
		{1, 1, 1, 1},
		{100, 1, 100, 1},
		{8, 1, 4, 0.5}, // 1 − C(7,4)/C(8,4) = 1 − 35/70
	} {
		require.InDelta(t, c.want, PassAtK(c.n, c.c, c.k), 1e-12, "n=%d c=%d k=%d", c.n, c.c, c.k)
	}
	for _, bad := range [][3]int{{5, 1, 0}, {5, 1, 6}, {5, 6, 1}, {0, 0, 1}, {5, -1, 1}} {
		require.True(t, math.IsNaN(PassAtK(bad[0], bad[1], bad[2])), "%v", bad)
	}
	// pass@1 is c/n for every n and c
	for n := 1; n <= 12; n++ {
		for c := 0; c <= n; c++ {
			require.InDelta(t, float64(c)/float64(n), PassAtK(n, c, 1), 1e-12)
		}
	}
	require.Equal(t, []int{1, 2, 4, 5}, PassKs(5))
	require.Equal(t, []int{1}, PassKs(1))
	require.Equal(t, []int{1, 2, 4, 8}, PassKs(8))
}
