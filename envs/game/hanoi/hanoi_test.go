package hanoi

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
	easyID   = "game:TowerofHanoi-v0-easy"
	hardID   = "game:TowerofHanoi-v0-hard"
	randomID = "game:TowerofHanoi-v0-random"
)

func makeEnv(t testing.TB, id string, opts ...envs.Option) envs.Env {
	t.Helper()
	return gamekittest.Make[envs.Env](t, Register, id, opts...)
}

func step(t testing.TB, env envs.Env, action string) envs.Step {
	t.Helper()
	return gamekittest.Step(t, env, action)
}

func TestOptimalSolutionWins(t *testing.T) {
	for _, tc := range []struct {
		id   string
		opts []envs.Option
	}{
		{easyID, nil},
		{hardID, nil},
		{easyID, []envs.Option{envs.With("disks", 1), envs.With("max_turns", 1)}},
		{easyID, []envs.Option{envs.With("disks", 7), envs.With("max_turns", 127)}},
	} {
		for _, style := range []string{"gem", "brief"} {
			env := makeEnv(t, tc.id, append(tc.opts, envs.With("style", style))...)
			_, info, err := env.Reset(0)
			require.NoError(t, err)
			n := info["disks"].(int)
			moves := Solution(n, "A", "B", "C", nil)
			require.Len(t, moves, 1<<n-1)
			total := 0.0
			for i, m := range moves {
				st := step(t, env, "move \\boxed{"+m+"}")
				total += st.Reward
				require.Nil(t, st.Info[envs.InfoInvalid], "move %d %s", i, m)
				if i < len(moves)-1 {
					require.False(t, st.Done(), "move %d", i)
					require.Equal(t, 0.0, st.Reward)
					continue
				}
				require.True(t, st.Terminated)
				require.False(t, st.Truncated)
				require.Equal(t, true, st.Info[envs.InfoSuccess])
				require.Equal(t, n, st.Info["disks_on_c"])
			}
			require.Equal(t, 1.0, total, "%s %v", tc.id, tc.opts)
		}
	}
}

func TestOptimalSolutionWinsEveryRandomLevel(t *testing.T) {
	env := makeEnv(t, randomID)
	seen := map[Level]bool{}
	for seed := uint64(0); seed < 60; seed++ {
		_, info, err := env.Reset(seed)
		require.NoError(t, err)
		lv := Level{info["disks"].(int), info[envs.InfoMaxTurns].(int)}
		require.Contains(t, randomLevels[:], lv)
		seen[lv] = true
		var st envs.Step
		for _, m := range Solution(lv.Disks, "A", "B", "C", nil) {
			st = step(t, env, envs.Boxed(m))
		}
		require.True(t, st.Terminated)
		require.Equal(t, 1.0, st.Reward)
	}
	require.Len(t, seen, 3)
}

func TestBriefText(t *testing.T) {
	env := makeEnv(t, easyID, envs.With("style", "brief"))
	obs, info, err := env.Reset(0)
	require.NoError(t, err)
	require.Equal(t, 10, info[envs.InfoMaxTurns])
	require.Equal(t, "Move 3 disks from A to C in 10 turns, never onto a smaller disk. Answer \\boxed{from to}.\nA[3 2 1] B[] C[]", obs)
	for _, tc := range []struct{ action, obs string }{
		{`\boxed{A C}`, "A C: A[3 2] B[] C[1]"},
		{`\boxed{A C}`, "A C: illegal, 2 onto 1; A[3 2] B[] C[1]"},
		{`\boxed{B C}`, "B C: illegal, B is empty; A[3 2] B[] C[1]"},
		{`\boxed{C C}`, "C C: illegal, same peg; A[3 2] B[] C[1]"},
		{`\boxed{a->b}`, "A B: A[3] B[2] C[1]"},
	} {
		st := step(t, env, tc.action)
		require.Equal(t, tc.obs, st.Obs, tc.action)
		require.Equal(t, 0.0, st.Reward)
		require.False(t, st.Done())
		require.Equal(t, strings.Contains(tc.obs, "illegal"), st.Info[envs.InfoInvalid] == true, tc.action)
	}
}

func TestGEMText(t *testing.T) {
	env := makeEnv(t, easyID)
	obs, _, err := env.Reset(0)
	require.NoError(t, err)
	require.True(t, strings.HasSuffix(obs, "The pegs now:\nA: 3 2 1\nB: (empty)\nC: (empty)"), obs)
	st := step(t, env, `\boxed{A B}`)
	require.Equal(t, "Turn 1: you moved disk 1 from A to B.\nThe pegs now:\nA: 3 2\nB: 1\nC: (empty)", st.Obs)
	st = step(t, env, `\boxed{A B}`)
	require.Equal(t, "Turn 2: you cannot move from A to B: disk 2 cannot go onto the smaller disk 1. Nothing moved.\nThe pegs now:\nA: 3 2\nB: 1\nC: (empty)", st.Obs)
}

func TestTurnLimitPartialReward(t *testing.T) {
	// Seven moves of the optimal 3-disk solution minus one leave 3 and 2 on
	// C (1 on A); then A-B shuffles until the 10-turn limit.
	for _, tc := range []struct {
		moves []string
		want  float64
	}{
		{[]string{"A C", "A B", "C B", "A C", "B A", "B C", "A B", "B A", "A B", "B A"}, 2.0 / 3},
		{[]string{"A C", "A B", "B A", "A B", "B A", "A B", "B A", "A B", "B A", "A B"}, 1.0 / 3},
		{[]string{"A B", "B A", "A B", "B A", "A B", "B A", "A B", "B A", "A B", "C A"}, 0},
	} {
		env := makeEnv(t, easyID, envs.With("style", "brief"))
		_, _, err := env.Reset(0)
		require.NoError(t, err)
		var st envs.Step
		for i, m := range tc.moves {
			st = step(t, env, envs.Boxed(m))
			require.Equal(t, i+1, st.Info[envs.InfoTurn])
			if i < len(tc.moves)-1 {
				require.False(t, st.Done())
				require.Equal(t, 0.0, st.Reward)
			}
		}
		require.True(t, st.Truncated)
		require.False(t, st.Terminated)
		require.InDelta(t, tc.want, st.Reward, 1e-12)
		require.Equal(t, false, st.Info[envs.InfoSuccess])
		require.True(t, strings.HasSuffix(st.Obs, "; out of turns"), st.Obs)
		_, err = env.Step(`\boxed{A B}`)
		require.ErrorIs(t, err, envs.ErrNotReset)
	}
}

func TestFormatErrorTerminates(t *testing.T) {
	for _, a := range []string{"A C", `\boxed{}`, `\boxed{A}`, `\boxed{A D}`, `\boxed{A B C}`, `\boxed{1 3}`, `\boxed{move A to C}`, `\boxed{A C}x\boxed{Z}`} {
		env := makeEnv(t, easyID)
		_, _, err := env.Reset(0)
		require.NoError(t, err)
		st := step(t, env, a)
		assert.Equal(t, envs.RewardFormatError, st.Reward, a)
		assert.True(t, st.Terminated, a)
		assert.False(t, st.Truncated, a)
		assert.Equal(t, true, st.Info[envs.InfoFormatError], a)
		assert.Equal(t, false, st.Info[envs.InfoSuccess], a)
		_, err = env.Step(`\boxed{A C}`)
		assert.ErrorIs(t, err, envs.ErrNotReset, a)
	}
}

func TestStepBeforeReset(t *testing.T) {
	_, err := makeEnv(t, easyID).Step(`\boxed{A C}`)
	require.ErrorIs(t, err, envs.ErrNotReset)
}

func TestSampleActionParses(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	pairs := map[string]bool{}
	for _, id := range []string{easyID, hardID, randomID} {
		env := makeEnv(t, id)
		s := env.(envs.ActionSampler)
		for seed := uint64(0); seed < 300; seed++ {
			_, _, err := env.Reset(seed)
			require.NoError(t, err)
			a := s.SampleAction(r)
			pairs[a] = true
			content, ok := envs.LastBoxed(a)
			require.True(t, ok)
			from, to, ok := parseMove(content)
			require.True(t, ok, a)
			require.NotEqual(t, from, to, a)
			st := step(t, env, a)
			require.Nil(t, st.Info[envs.InfoFormatError], "%s: %q", id, a)
		}
	}
	require.Len(t, pairs, 6, "all six ordered pairs of distinct pegs")
}

func TestBadOptions(t *testing.T) {
	r := envs.NewRegistry()
	require.NoError(t, Register(r))
	for _, tc := range []struct {
		id   string
		opts []envs.Option
		want string
	}{
		{easyID, []envs.Option{envs.With("disks", 0)}, "disks"},
		{easyID, []envs.Option{envs.With("disks", 13)}, "disks"},
		{easyID, []envs.Option{envs.With("disks", 4)}, "max_turns = 10 cannot solve 4 disks"},
		{hardID, []envs.Option{envs.With("max_turns", 30)}, "needs at least 2^5-1 = 31"},
		{randomID, []envs.Option{envs.With("max_turns", 12)}, "needs at least 31"},
		{randomID, []envs.Option{envs.With("disks", 3)}, "unknown option disks"},
	} {
		_, err := r.Make(tc.id, tc.opts...)
		require.Error(t, err)
		require.Contains(t, err.Error(), tc.want)
	}
}
