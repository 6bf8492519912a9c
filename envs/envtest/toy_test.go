package envtest

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/gemgo/gemgo/envs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestToyTargetsCoverDigits(t *testing.T) {
	count := map[int]int{}
	for seed := range uint64(900) {
		d := ToyTarget(seed)
		require.GreaterOrEqual(t, d, 1)
		require.LessOrEqual(t, d, 9)
		count[d]++
	}
	for d := 1; d <= 9; d++ {
		assert.Greater(t, count[d], 50, "digit %d is drawn about 1 time in 9", d)
	}
}

// Bisection always wins within 4 turns and pays ToyWin plus one ToyMiss per
// wrong guess.
func TestToyBisectionWins(t *testing.T) {
	for seed := range uint64(200) {
		env := NewToy(4)
		_, _, err := env.Reset(seed)
		require.NoError(t, err)
		lo, hi, ret := 1, 9, 0.0
		for turn := 1; ; turn++ {
			g := (lo + hi) / 2
			st, err := env.Step(envs.Boxed(strconv.Itoa(g)))
			require.NoError(t, err)
			ret += st.Reward
			if st.Terminated {
				assert.Equal(t, g, ToyTarget(seed))
				assert.Equal(t, true, st.Info[envs.InfoSuccess])
				assert.InDelta(t, ToyWin+float64(turn-1)*ToyMiss, ret, 1e-12)
				break
			}
			require.False(t, st.Truncated, "seed %d: bisection needs at most 4 guesses", seed)
			switch {
			case strings.HasSuffix(st.Obs, " higher"):
				lo = g + 1
			case strings.HasSuffix(st.Obs, " lower"):
				hi = g - 1
			default:
				t.Fatalf("unexpected feedback %q", st.Obs)
			}
		}
	}
}

func TestToySampleActionParses(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	env := NewToy(3)
	for range 500 {
		got, ok := envs.LastBoxed(env.SampleAction(r))
		require.True(t, ok)
		require.Len(t, got, 1)
		require.Contains(t, "123456789", got)
	}
}
