package sokoban

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// parseRoom reads a room drawn with render's symbols (spaces optional).
func parseRoom(s string) *room {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	r := &room{n: len(lines)}
	for _, l := range lines {
		for _, ch := range strings.ReplaceAll(strings.TrimSpace(l), " ", "") {
			i := len(r.wall)
			r.wall = append(r.wall, ch == '#')
			r.target = append(r.target, ch == '.' || ch == '*' || ch == '+')
			r.box = append(r.box, ch == '$' || ch == '*')
			if ch == '@' || ch == '+' {
				r.player = i
			}
		}
	}
	return r
}

const smallRoom = `
######
#____#
#_$$.#
#_@__#
#.___#
######`

func TestRenderRoundTrip(t *testing.T) {
	r := parseRoom(smallRoom)
	want := strings.Join([]string{
		"# # # # # #",
		"# _ _ _ _ #",
		"# _ $ $ . #",
		"# _ @ _ _ #",
		"# . _ _ _ #",
		"# # # # # #",
	}, "\n")
	assert.Equal(t, want, string(r.render(nil)))
	assert.Equal(t, want, string(parseRoom(want).render(nil)))
}

func TestMovesAndPushes(t *testing.T) {
	r := parseRoom(smallRoom)
	assert.Equal(t, "a wall is in the way", parseRoom("###\n#@#\n###").blocked(down))
	// Up from (3,2) pushes the box at (2,2) to (1,2); pushing on into the
	// top wall is blocked.
	assert.True(t, r.move(up))
	assert.True(t, r.box[1*6+2])
	assert.False(t, r.box[2*6+2])
	assert.Equal(t, 2*6+2, r.player)
	assert.Equal(t, "the box would hit a wall", r.blocked(up))
	// From (2,1), right runs into two boxes in a row.
	r = parseRoom(smallRoom)
	r.player = 2*6 + 1
	assert.Equal(t, "the box would hit another box", r.blocked(right))
	// A plain step moves no box.
	r.player = 3*6 + 3
	assert.False(t, r.move(right))
	assert.Equal(t, 3*6+4, r.player)
	// With one box left, two pushes right put it on the target at (2,4).
	r.player = 2*6 + 1
	r.box[2*6+3] = false
	assert.True(t, r.move(right))
	assert.False(t, r.solved())
	assert.True(t, r.move(right))
	assert.True(t, r.solved())
	assert.Equal(t, "the box would hit a wall", r.blocked(right))
}

func TestSolverOnKnownRooms(t *testing.T) {
	// One push right solves it.
	r := parseRoom(`
#####
#@$.#
#####`)
	assert.Equal(t, 1, solve(r, 10))
	assert.Equal(t, []dir{right}, moves(r, 10))
	// A box in a corner off target can never move.
	r = parseRoom(`
#####
#$__#
#_@.#
#####`)
	assert.Equal(t, -1, solve(r, 50))
	// Within a too-small limit there is no solution.
	r = parseRoom(`
######
#@_$.#
######`)
	assert.Equal(t, 2, solve(r, 10))
	assert.Equal(t, -1, solve(r, 1))
}

func TestReversePlayRoomsAreSolvable(t *testing.T) {
	for _, l := range []Level{easyLevel(), hardLevel()} {
		seeds := 150
		if l.Size == 8 {
			seeds = 60
		}
		offAll := 0
		for seed := range uint64(seeds) {
			rng := rand.New(rand.NewPCG(seed, 0))
			r, steps, err := generate(rng, l.Size, l.Boxes, l.budget())
			require.NoError(t, err)
			on, boxes := r.onTarget()
			targets := 0
			for i, tg := range r.target {
				if tg {
					targets++
					require.False(t, r.wall[i])
				}
			}
			require.Equal(t, l.Boxes, boxes)
			require.Equal(t, l.Boxes, targets)
			require.Less(t, on, boxes, "seed %d: the room starts unsolved", seed)
			if on == 0 {
				offAll++
			}
			for i := range r.wall {
				row, col := i/l.Size, i%l.Size
				if row == 0 || col == 0 || row == l.Size-1 || col == l.Size-1 {
					require.True(t, r.wall[i], "the border is wall")
				}
			}
			require.False(t, r.wall[r.player] || r.box[r.player])
			require.LessOrEqual(t, steps, l.budget())
			n := solve(r, steps)
			require.GreaterOrEqual(t, n, 1, "%s seed %d: no solution within the %d-step reverse walk\n%s", l.Name, seed, steps, r.render(nil))
			require.LessOrEqual(t, n, l.Turns)
		}
		assert.Greater(t, offAll, seeds/2, "%s: most rooms start with every box off target", l.Name)
	}
}
