package envs_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/envtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// randomStartToy is a Toy with turn limit limit, its history shown (one
// line per turn), behind RandomStart(prob, maxTurns).
func randomStartToy(t *testing.T, limit int, prob float64, maxTurns int) *envs.RandomStart {
	t.Helper()
	h, err := envs.NewObservationHistory(envtest.NewToy(limit), 0)
	require.NoError(t, err)
	w, err := envs.NewRandomStart(h, prob, maxTurns)
	require.NoError(t, err)
	return w
}

// Over many seeds: the share of episodes that start part-way is the
// probability; each such start played 1..maxTurns live turns, which the
// observation shows, and the turns left are the limit less those; the
// agent then plays on from there, its turns counted from 1.
func TestRandomStartShareAndState(t *testing.T) {
	const seeds, limit, maxTurns, prob = 4000, 10, 4, 0.3
	w := randomStartToy(t, limit, prob, maxTurns)
	started, byK := 0, make([]int, maxTurns+1)
	for seed := range uint64(seeds) {
		obs, info, err := w.Reset(seed)
		require.NoError(t, err)
		k := info[envs.InfoRandomStart].(int)
		require.GreaterOrEqual(t, k, 0)
		require.LessOrEqual(t, k, maxTurns)
		byK[k]++
		lines := strings.Split(obs, "\n")
		require.Len(t, lines, k+1, "seed %d: the history shows the %d random turns", seed, k)
		assert.Equal(t, "guess 1-9", lines[0])
		if k == 0 {
			assert.Equal(t, limit, info[envs.InfoMaxTurns])
			continue
		}
		started++
		assert.Equal(t, limit-k, info[envs.InfoMaxTurns], "seed %d", seed)
		last := lines[k]
		assert.True(t, strings.HasPrefix(last, fmt.Sprintf("t%d ", k)), "seed %d: last line %q", seed, last)
		assert.NotContains(t, obs, "correct", "seed %d: a random turn must not end the episode", seed)
		st, err := w.Step(envs.Boxed(fmt.Sprint(envtest.ToyTarget(seed))))
		require.NoError(t, err)
		assert.True(t, st.Terminated)
		assert.Equal(t, 1, st.Info[envs.InfoTurn], "seed %d: the turn count is the agent's", seed)
	}
	share := float64(started) / seeds
	assert.InDelta(t, prob, share, 4*math.Sqrt(prob*(1-prob)/seeds), "share of random starts")
	for k := 1; k <= maxTurns; k++ {
		assert.Greater(t, byK[k], started/10, "k = %d random turns is drawn (counts %v)", k, byK)
	}
}

// A random action that ends the episode (a lucky guess of the Toy's digit,
// one in nine) is taken back: Reset replays the turns before it, so the
// agent always gets a live state, and starts end up shorter than drawn.
func TestRandomStartReplaysAnEndingAction(t *testing.T) {
	const limit, maxTurns = 40, 30
	w := randomStartToy(t, limit, 1, maxTurns)
	short, sum := 0, 0
	for seed := range uint64(500) {
		obs, info, err := w.Reset(seed)
		require.NoError(t, err)
		k := info[envs.InfoRandomStart].(int)
		assert.NotContains(t, obs, "correct", "seed %d", seed)
		assert.Equal(t, limit-k, info[envs.InfoMaxTurns])
		if k < maxTurns {
			short++
		}
		sum += k
		// the episode is live: a wrong guess goes on
		st, err := w.Step(`\boxed{0}`)
		require.NoError(t, err, "seed %d", seed)
		assert.False(t, st.Done(), "seed %d", seed)
		assert.Equal(t, 1, st.Info[envs.InfoTurn])
	}
	// a draw of 30 turns (one seed in 30) keeps all of them only when none
	// of 30 guesses of one in nine wins ((8/9)^30 ≈ 0.03), and a lucky
	// guess cuts the uniform draw's mean of 15.5 turns to under 8
	assert.Greater(t, short, 490)
	assert.Less(t, float64(sum)/500, 8.0, "mean random turns")
}

// The env's turn limit leaves the agent at least one turn; with a limit
// of one nothing is played for it.
func TestRandomStartKeepsATurnForTheAgent(t *testing.T) {
	for _, limit := range []int{1, 2, 3} {
		w := randomStartToy(t, limit, 1, 10)
		for seed := range uint64(200) {
			_, info, err := w.Reset(seed)
			require.NoError(t, err)
			k := info[envs.InfoRandomStart].(int)
			assert.LessOrEqual(t, k, limit-1, "limit %d, seed %d", limit, seed)
			assert.GreaterOrEqual(t, info[envs.InfoMaxTurns].(int), 1)
		}
	}
}

// The wrapped env keeps the env contract (envtest.CheckEnv): the same seed
// and actions give the same episode on a fresh env, a reused one and after
// a Reset mid-episode; episodes under random actions last at most the
// turns Reset reports; Info[InfoTurn] counts the agent's turns.
func TestRandomStartKeepsTheContract(t *testing.T) {
	envtest.CheckEnv(t, func() (envs.Env, error) {
		h, err := envs.NewObservationHistory(envtest.NewToy(12), 0)
		if err != nil {
			return nil, err
		}
		return envs.NewRandomStart(h, 0.6, 6)
	})
}

// Probability 0 is the inner env unchanged.
func TestRandomStartZeroIsTheInnerEnv(t *testing.T) {
	w := randomStartToy(t, 8, 0, 5)
	ref, err := envs.NewObservationHistory(envtest.NewToy(8), 0)
	require.NoError(t, err)
	for seed := range uint64(100) {
		obs, info, err := w.Reset(seed)
		require.NoError(t, err)
		want, wantInfo, err := ref.Reset(seed)
		require.NoError(t, err)
		assert.Equal(t, want, obs)
		assert.Equal(t, 0, info[envs.InfoRandomStart])
		assert.Equal(t, wantInfo[envs.InfoMaxTurns], info[envs.InfoMaxTurns])
	}
}

// failing errors on every step, as a crashed tool process would.
type failing struct{ *envtest.Toy }

func (failing) Step(string) (envs.Step, error) { return envs.Step{}, errors.New("tool process exited") }

func TestRandomStartErrors(t *testing.T) {
	toy := envtest.NewToy(5)
	for _, c := range []struct {
		env  envs.Env
		prob float64
		max  int
		want string
	}{
		{nil, 0.5, 3, "nil env"},
		{toy, -0.1, 3, "probability -0.1: allowed [0, 1]"},
		{toy, 1.5, 3, "probability 1.5"},
		{toy, math.NaN(), 3, "probability NaN"},
		{toy, 0.5, 0, "max turns = 0"},
		{bare{toy}, 0.5, 3, "no SampleAction"},
	} {
		_, err := envs.NewRandomStart(c.env, c.prob, c.max)
		require.Error(t, err)
		assert.Contains(t, err.Error(), c.want)
	}
	w, err := envs.NewRandomStart(failing{toy}, 1, 3)
	require.NoError(t, err)
	_, _, err = w.Reset(4)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "random start: turn 1 of seed 4: tool process exited")
	assert.Same(t, envs.Env(failing{toy}).(failing).Toy, envs.Unwrapped(w).(failing).Toy)
	r1, r2 := rand.New(rand.NewPCG(3, 4)), rand.New(rand.NewPCG(3, 4))
	assert.Equal(t, toy.SampleAction(r1), w.SampleAction(r2))
}
