package game2048

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestSlide(t *testing.T) {
	for _, c := range []struct {
		in, want [size]int
		merged   int
	}{
		{[size]int{2, 2, 2, 2}, [size]int{4, 4, 0, 0}, 4},
		{[size]int{4, 4, 8, 0}, [size]int{8, 8, 0, 0}, 8},
		{[size]int{2, 2, 2, 0}, [size]int{4, 2, 0, 0}, 4},
		{[size]int{8, 8, 16, 0}, [size]int{16, 16, 0, 0}, 16},
		{[size]int{2, 0, 2, 0}, [size]int{4, 0, 0, 0}, 4},
		{[size]int{0, 0, 0, 2}, [size]int{2, 0, 0, 0}, 0},
		{[size]int{2, 4, 8, 16}, [size]int{2, 4, 8, 16}, 0},
		{[size]int{4, 2, 2, 4}, [size]int{4, 4, 4, 0}, 4},
		{[size]int{2, 2, 4, 4}, [size]int{4, 8, 0, 0}, 8},
		{[size]int{0, 0, 0, 0}, [size]int{0, 0, 0, 0}, 0},
	} {
		v := c.in
		got := slide(&v)
		assert.Equal(t, c.want, v, "slide %v", c.in)
		assert.Equal(t, c.merged, got, "merged max of %v", c.in)
	}
}

func TestMoveEachDirection(t *testing.T) {
	start := board{
		2, 2, 0, 4,
		0, 2, 0, 4,
		2, 0, 8, 8,
		0, 0, 0, 2,
	}
	want := map[dir]board{
		left: {
			4, 4, 0, 0,
			2, 4, 0, 0,
			2, 16, 0, 0,
			2, 0, 0, 0,
		},
		right: {
			0, 0, 4, 4,
			0, 0, 2, 4,
			0, 0, 2, 16,
			0, 0, 0, 2,
		},
		up: {
			4, 4, 8, 8,
			0, 0, 0, 8,
			0, 0, 0, 2,
			0, 0, 0, 0,
		},
		down: {
			0, 0, 0, 0,
			0, 0, 0, 8,
			0, 0, 0, 8,
			4, 4, 8, 2,
		},
	}
	merged := map[dir]int{left: 16, right: 16, up: 8, down: 8}
	for d, w := range want {
		b := start
		changed, m := b.move(d)
		assert.True(t, changed, d.String())
		assert.Equal(t, w, b, d.String())
		assert.Equal(t, merged[d], m, d.String())
	}
	b := board{2, 4, 0, 0}
	changed, _ := b.move(left)
	assert.False(t, changed, "a left-packed row with no pair does not move left")
	assert.False(t, b.legal(left))
	assert.True(t, b.legal(right))
}

func TestCanMove(t *testing.T) {
	full := board{
		2, 4, 2, 4,
		4, 2, 4, 2,
		2, 4, 2, 4,
		4, 2, 4, 2,
	}
	assert.False(t, full.canMove())
	h := full
	h[1] = 2 // horizontal pair in row 0
	assert.True(t, h.canMove())
	v := full
	v[15] = 4 // vertical pair in column 3
	assert.True(t, v.canMove())
	g := full
	g[6] = 0
	assert.True(t, g.canMove())
}

func TestRender(t *testing.T) {
	b := board{2, 0, 0, 512, 0, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 16}
	assert.Equal(t, "2 . . 512\n. . . .\n. . . .\n4 . . 16", string(b.render(nil)))
}
