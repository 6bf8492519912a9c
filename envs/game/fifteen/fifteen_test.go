package fifteen

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/game/gamekit/gamekittest"
)

const (
	easyID   = "game:FifteenPuzzle-v0-easy"
	hardID   = "game:FifteenPuzzle-v0-hard"
	randomID = "game:FifteenPuzzle-v0-random"
)

func makeEnv(t testing.TB, id string, opts ...envs.Option) *Env {
	t.Helper()
	return gamekittest.Make[*Env](t, Register, id, opts...)
}

func step(t testing.TB, env envs.Env, action string) envs.Step {
	t.Helper()
	return gamekittest.Step(t, env, action)
}

func TestReversingTheScrambleWins(t *testing.T) {
	for _, id := range []string{easyID, hardID, randomID} {
		env := makeEnv(t, id)
		for seed := uint64(0); seed < 100; seed++ {
			_, info, err := env.Reset(seed)
			require.NoError(t, err)
			require.False(t, env.b.solved(), "%s seed %d: the start must not be the goal", id, seed)
			path := append([]int(nil), env.scramble...)
			require.Less(t, len(path), info[envs.InfoMaxTurns].(int))
			for i := 1; i < len(path); i++ {
				require.NotEqual(t, inverse[path[i-1]], path[i], "the scramble backtracks")
			}
			total := 0.0
			var st envs.Step
			s := NewSolver(env)
			for i := len(path) - 1; i >= 0 && !st.Done(); i-- {
				a, err := s.Act("")
				require.NoError(t, err)
				require.Equal(t, envs.Boxed(dirNames[inverse[path[i]]]), a)
				st = step(t, env, "I slide "+a)
				require.Nil(t, st.Info[envs.InfoInvalid])
				total += st.Reward
			}
			require.True(t, st.Terminated, "%s seed %d", id, seed)
			require.False(t, st.Truncated)
			require.Equal(t, true, st.Info[envs.InfoSuccess])
			require.Equal(t, 1.0, total)
		}
	}
}

func TestBoardMoves(t *testing.T) {
	var b board
	b.reset(3)
	require.Equal(t, []int{1, 2, 3, 4, 5, 6, 7, 8, 0}, b.cells)
	require.True(t, b.solved())
	require.False(t, b.move(up), "no tile below the blank")
	require.False(t, b.move(left), "no tile right of the blank")
	require.True(t, b.move(down)) // 6 slides down
	require.Equal(t, []int{1, 2, 3, 4, 5, 0, 7, 8, 6}, b.cells)
	require.True(t, b.move(right)) // 5 slides right
	require.Equal(t, []int{1, 2, 3, 4, 0, 5, 7, 8, 6}, b.cells)
	require.Equal(t, 4, b.blank)
	require.Equal(t, 6, b.inPlace()) // 1 2 3 4 7 8
	require.True(t, b.move(up))      // 8 slides up
	require.True(t, b.move(left))
	require.Equal(t, []int{1, 2, 3, 4, 8, 5, 7, 6, 0}, b.cells)
}

func TestBriefText(t *testing.T) {
	env := makeEnv(t, easyID, envs.With("style", "brief"), envs.With("scramble", 2))
	obs, info, err := env.Reset(0)
	require.NoError(t, err)
	require.Equal(t, 10, info[envs.InfoMaxTurns])
	lines := strings.Split(obs, "\n")
	require.Len(t, lines, 2)
	require.Equal(t, `Sort tiles 1-3 with the blank _ last in 10 turns. Answer \boxed{up}, down, left or right: the tile that slides into _.`, lines[0])
	// Two non-backtracking moves from the goal take the blank round to the
	// top-left corner, one way or the other.
	require.Contains(t, []string{"_ 2 / 1 3", "_ 1 / 3 2"}, lines[1])
}

func TestBriefStepText(t *testing.T) {
	env := makeEnv(t, easyID, envs.With("style", "brief"), envs.With("scramble", 2))
	for seed := uint64(0); seed < 20; seed++ {
		obs, _, err := env.Reset(seed)
		require.NoError(t, err)
		switch board := strings.Split(obs, "\n")[1]; board {
		case "_ 2 / 1 3": // blank top-left: up and left move tiles
			st := step(t, env, `\boxed{down}`)
			require.Equal(t, "down: no tile there; _ 2 / 1 3", st.Obs)
			require.Equal(t, true, st.Info[envs.InfoInvalid])
			st = step(t, env, `\boxed{u}`)
			require.Equal(t, "up: 1 2 / _ 3", st.Obs)
			require.Nil(t, st.Info[envs.InfoInvalid])
			st = step(t, env, `\boxed{Left}`)
			require.Equal(t, "left: 1 2 / 3 _", st.Obs)
			require.True(t, st.Terminated)
		case "_ 1 / 3 2":
			st := step(t, env, `\boxed{right}`)
			require.Equal(t, "right: no tile there; _ 1 / 3 2", st.Obs)
			st = step(t, env, `\boxed{L}`)
			require.Equal(t, "left: 1 _ / 3 2", st.Obs)
			st = step(t, env, `\boxed{UP}`)
			require.Equal(t, "up: 1 2 / 3 _", st.Obs)
			require.True(t, st.Terminated)
			require.Equal(t, 1.0, st.Reward)
		default:
			t.Fatalf("unexpected board %q", board)
		}
	}
}

func TestGEMText(t *testing.T) {
	env := makeEnv(t, hardID)
	obs, _, err := env.Reset(3)
	require.NoError(t, err)
	i := strings.Index(obs, "The board now:\n")
	require.GreaterOrEqual(t, i, 0)
	rows := strings.Split(obs[i+len("The board now:\n"):], "\n")
	require.Len(t, rows, 4)
	for _, row := range rows {
		require.Len(t, row, 11, "%q: four cells two wide", row)
	}
	require.Equal(t, 2, strings.Count(obs, "__"), "the blank in the text and on the board")
}

func TestTurnLimitPartialReward(t *testing.T) {
	// 3x3, scramble 1: one move from the goal (7 of 8 tiles in place).
	// Repeating the scramble move and then undoing it, five times, shuttles
	// between two and one moves away and never solves: the limit pays 7/8.
	env := makeEnv(t, easyID, envs.With("size", 3), envs.With("scramble", 1), envs.With("style", "brief"))
	for seed := uint64(0); seed < 10; seed++ {
		_, _, err := env.Reset(seed)
		require.NoError(t, err)
		d := env.scramble[0]
		require.Equal(t, 7, env.b.inPlace())
		var st envs.Step
		for i := range 10 {
			a := dirNames[d]
			if i%2 == 1 {
				a = dirNames[inverse[d]]
			}
			st = step(t, env, envs.Boxed(a))
			if i < 9 {
				require.False(t, st.Done(), "move %d", i)
			}
		}
		require.True(t, st.Truncated)
		require.False(t, st.Terminated)
		require.Equal(t, false, st.Info[envs.InfoSuccess])
		require.Equal(t, env.b.inPlace(), st.Info["tiles_in_place"])
		require.Equal(t, 7, env.b.inPlace())
		require.InDelta(t, 7.0/8, st.Reward, 1e-12)
		require.True(t, strings.HasSuffix(st.Obs, "; out of turns"))
		_, err = env.Step(`\boxed{up}`)
		require.ErrorIs(t, err, envs.ErrNotReset)
	}
}

func TestFormatErrorTerminates(t *testing.T) {
	for _, a := range []string{"up", `\boxed{}`, `\boxed{north}`, `\boxed{up down}`, `\boxed{upp}`, `\boxed{1}`, `\boxed{up}\boxed{x}`} {
		env := makeEnv(t, easyID)
		_, _, err := env.Reset(0)
		require.NoError(t, err)
		st := step(t, env, a)
		assert.Equal(t, envs.RewardFormatError, st.Reward, a)
		assert.True(t, st.Terminated, a)
		assert.False(t, st.Truncated, a)
		assert.Equal(t, true, st.Info[envs.InfoFormatError], a)
		assert.Equal(t, false, st.Info[envs.InfoSuccess], a)
		_, err = env.Step(`\boxed{up}`)
		assert.ErrorIs(t, err, envs.ErrNotReset, a)
	}
}

func TestStepBeforeReset(t *testing.T) {
	_, err := makeEnv(t, easyID).Step(`\boxed{up}`)
	require.ErrorIs(t, err, envs.ErrNotReset)
}

func TestRandomLevels(t *testing.T) {
	env := makeEnv(t, randomID)
	seen := map[Level]bool{}
	for seed := uint64(0); seed < 300; seed++ {
		_, info, err := env.Reset(seed)
		require.NoError(t, err)
		lv := Level{info["size"].(int), info[envs.InfoMaxTurns].(int)}
		require.Contains(t, randomLevels[:], lv)
		require.Len(t, env.b.cells, lv.Size*lv.Size)
		seen[lv] = true
	}
	require.Len(t, seen, 3)
}

func TestDeterministic(t *testing.T) {
	a, b := makeEnv(t, randomID), makeEnv(t, randomID)
	boards := map[string]bool{}
	for seed := uint64(0); seed < 50; seed++ {
		oa, _, err := a.Reset(seed)
		require.NoError(t, err)
		ob, _, err := b.Reset(seed)
		require.NoError(t, err)
		require.Equal(t, oa, ob)
		boards[oa] = true
	}
	require.Greater(t, len(boards), 20)
}

func TestSampleActionParsesAndMoves(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for _, id := range []string{easyID, hardID, randomID} {
		env := makeEnv(t, id)
		_, err := parseOK(env.SampleAction(r)) // before Reset
		require.NoError(t, err)
		for seed := uint64(0); seed < 100; seed++ {
			_, _, err := env.Reset(seed)
			require.NoError(t, err)
			for {
				a := env.SampleAction(r)
				st := step(t, env, a)
				require.Nil(t, st.Info[envs.InfoFormatError], a)
				require.Nil(t, st.Info[envs.InfoInvalid], a)
				if st.Done() {
					break
				}
			}
		}
	}
}

func parseOK(a string) (int, error) {
	content, ok := envs.LastBoxed(a)
	if !ok {
		return 0, assert.AnError
	}
	d, ok := parseDir(content)
	if !ok {
		return 0, assert.AnError
	}
	return d, nil
}

func TestBadOptions(t *testing.T) {
	r := envs.NewRegistry()
	require.NoError(t, Register(r))
	for _, tc := range []struct {
		id   string
		opts []envs.Option
		want string
	}{
		{easyID, []envs.Option{envs.With("size", 1)}, "size"},
		{easyID, []envs.Option{envs.With("size", 9)}, "size"},
		{easyID, []envs.Option{envs.With("scramble", 10)}, "scramble = 10 must be below max_turns = 10"},
		{hardID, []envs.Option{envs.With("max_turns", 1)}, "must be below max_turns = 1"},
		{randomID, []envs.Option{envs.With("max_turns", 20)}, "too few for the default scramble"},
		{randomID, []envs.Option{envs.With("scramble", 12)}, "scramble = 12 must be below"},
		{randomID, []envs.Option{envs.With("size", 3)}, "unknown option size"},
	} {
		_, err := r.Make(tc.id, tc.opts...)
		require.Error(t, err, "%v", tc.opts)
		require.Contains(t, err.Error(), tc.want)
	}
}
