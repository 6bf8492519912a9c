package sokoban

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/envtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTeacherMoveOnKnownRooms: the exact move on hand-built rooms, ties
// broken in the order up, down, left, right, and none on a solved room or
// one with a dead box.
func TestTeacherMoveOnKnownRooms(t *testing.T) {
	for _, tc := range []struct {
		name, room string
		want       dir
		ok         bool
	}{
		{"one push", `
#####
#@$.#
#####
#####
#####`, right, true},
		// The player must first reach the box's left (one step down):
		// right starts a longer walk.
		{"walk to the box first", `
######
#@___#
#_$_.#
#____#
#____#
######`, down, true},
		// Down-down-right, down-right-down and right-down-down all reach
		// the box's left in three moves (four in all): down comes first.
		{"tie", `
######
#@___#
#____#
#__$.#
#____#
######`, down, true},
		// Pushing up is the only way: the target is above the box.
		{"push up", `
######
#_.__#
#_$__#
#_@__#
#____#
######`, up, true},
		// Left, then down twice pushes the box onto the target at the
		// bottom: left is the only first move of a 3-move solution.
		{"left first", `
######
#__@_#
#_$__#
#____#
#_.__#
######`, left, true},
		{"solved", `
#####
#@_*#
#####
#####
#####`, 0, false},
		{"dead box in a corner", `
#####
#$__#
#_@.#
#_$.#
#####`, 0, false},
	} {
		r := parseRoom(tc.room)
		d, ok := teacherMove(r, 20)
		require.Equal(t, tc.ok, ok, tc.name)
		if ok {
			assert.Equal(t, tc.want, d, "%s: got %s", tc.name, d)
		}
	}
	// In the tie, right also starts a shortest solution: the order chose.
	r := parseRoom(`
######
#@___#
#____#
#__$.#
#____#
######`)
	require.Equal(t, 4, solve(r, 20))
	r.move(right)
	assert.Equal(t, 3, solve(r, 20))
}

// TestSampleSolverSolvesEveryRoom: with sample: solver, every move of 300
// easy games and 20 hard ones is accepted and the game is won in exactly
// the moves of the room's shortest solution, whatever the random stream
// (two streams give the same moves: the teacher draws nothing).
func TestSampleSolverSolvesEveryRoom(t *testing.T) {
	for _, c := range []struct {
		id    string
		seeds uint64
	}{{"game:Sokoban-v0-easy", 300}, {"game:Sokoban-v0-hard", 20}} {
		e := make1(t, c.id, envs.With(envs.SampleOption, "solver"))
		for seed := range c.seeds {
			_, _, err := e.Reset(seed)
			require.NoError(t, err)
			want := solve(e.r, e.limit)
			require.Positive(t, want, "%s seed %d", c.id, seed)
			r1 := rand.New(rand.NewPCG(seed, 1))
			r2 := rand.New(rand.NewPCG(seed, 2))
			for turn := 1; ; turn++ {
				a := e.SampleAction(r1)
				require.Equal(t, a, e.SampleAction(r2), "%s seed %d turn %d", c.id, seed, turn)
				st := step(t, e, a)
				require.Nil(t, st.Info[envs.InfoInvalid], "%s seed %d turn %d", c.id, seed, turn)
				if st.Done() {
					require.Equal(t, true, st.Info[envs.InfoSuccess], "%s seed %d", c.id, seed)
					require.Equal(t, want, turn, "%s seed %d: the shortest solution's moves", c.id, seed)
					break
				}
			}
		}
	}
}

// TestSampleSolverFallsBackToTheDefaultDraw: in a room with a dead box the
// solver env draws what the default env draws from the same stream.
func TestSampleSolverFallsBackToTheDefaultDraw(t *testing.T) {
	dead := `
######
#$___#
#_@_.#
#__$.#
#____#
######`
	solver := make1(t, "game:Sokoban-v0-easy", envs.With(envs.SampleOption, "solver"))
	plain := make1(t, "game:Sokoban-v0-easy")
	var got [2][]string
	for k, e := range []*Env{solver, plain} {
		_, _, err := e.Reset(0)
		require.NoError(t, err)
		e.r = parseRoom(dead)
		r := rand.New(rand.NewPCG(7, 7))
		for range 40 {
			got[k] = append(got[k], e.SampleAction(r))
		}
	}
	assert.Equal(t, got[1], got[0])
	assert.Len(t, slices.Compact(slices.Sorted(slices.Values(got[0]))), 4, "the draw plays every open move")
}

// TestSampleOptionDefault: sample absent and sample: any draw the same
// moves (the draw the golden transcripts in envs/builtin pin), the solver
// plays other moves, and a value other than any or solver is an error
// naming the allowed ones.
func TestSampleOptionDefault(t *testing.T) {
	var got [3][]string
	for k, opts := range [][]envs.Option{nil, {envs.With(envs.SampleOption, "any")}, {envs.With(envs.SampleOption, "solver")}} {
		e := make1(t, "game:Sokoban-v0-easy", opts...)
		got[k] = envtest.SampleDraws(t, e, 30, 3) // at most 3 moves a game for every player
	}
	require.Equal(t, got[0], got[1])
	assert.NotEqual(t, got[0], got[2])
	_, err := registry(t).Make("game:Sokoban-v0-easy", envs.With(envs.SampleOption, "oracle"))
	require.ErrorContains(t, err, "sample")
	require.ErrorContains(t, err, "any")
	require.ErrorContains(t, err, "solver")
}

// BenchmarkSampleSolver times the teacher's move (up to five searches) on
// the easy level, over the states of the teacher's own games.
func BenchmarkSampleSolver(b *testing.B) {
	e := make1(b, "game:Sokoban-v0-easy", envs.With(envs.SampleOption, "solver"))
	r := rand.New(rand.NewPCG(1, 1))
	seed := uint64(0)
	_, _, _ = e.Reset(seed)
	for b.Loop() {
		if st, _ := e.Step(e.SampleAction(r)); st.Done() {
			seed++
			_, _, _ = e.Reset(seed)
		}
	}
}
