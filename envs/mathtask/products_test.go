package mathtask_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/task"
)

// productsAnswer resets math:Products-v0 with opts on seed and returns the
// env and its gold answer.
func productsAnswer(t *testing.T, seed uint64, opts ...envs.Option) (envs.Env, string) {
	t.Helper()
	e, err := registry(t).Make("math:Products-v0", opts...)
	require.NoError(t, err)
	_, _, err = e.Reset(seed)
	require.NoError(t, err)
	return e, e.(interface{ Problem() task.Problem }).Problem().Answer
}

// flip changes the digit of s at i to the next digit (mod 10).
func flip(s string, i int) string {
	b := []byte(s)
	b[i] = '0' + (b[i]-'0'+1)%10
	return string(b)
}

func TestProductsPartialCredit(t *testing.T) {
	for seed := uint64(1); seed <= 50; seed++ {
		e, gold := productsAnswer(t, seed, envs.With("partial_credit", true))
		n := float64(len(gold))
		cases := []struct {
			answer  string
			reward  float64
			success bool
		}{
			{gold, 1, true},
			{flip(gold, len(gold)-1), 0.5 * (n - 1) / n, false},          // one slip
			{flip(flip(gold, 1), len(gold)-1), 0.5 * (n - 2) / n, false}, // two slips
			{gold + "0", 0, false}, // wrong length
			{gold[:len(gold)-1], 0, false},
			{gold[:2] + "x" + gold[3:], 0, false}, // not a number
		}
		for _, c := range cases {
			_, _, err := e.Reset(seed)
			require.NoError(t, err)
			st, err := e.Step(fmt.Sprintf(`\boxed{%s}`, c.answer))
			require.NoError(t, err)
			assert.InDelta(t, c.reward, st.Reward, 1e-12, "seed %d answer %q (gold %s)", seed, c.answer, gold)
			assert.Equal(t, c.success, st.Info[envs.InfoSuccess], "seed %d answer %q", seed, c.answer)
			assert.Less(t, st.Reward, 1.0+1e-12)
			if !c.success {
				assert.Less(t, st.Reward, 0.5, "a wrong answer never pays half a solve")
			}
		}
		// Without the option a slip pays nothing, as GEM's 0-or-1 math.
		plain, gold2 := productsAnswer(t, seed)
		require.Equal(t, gold, gold2)
		st, err := plain.Step(fmt.Sprintf(`\boxed{%s}`, flip(gold, 0)))
		require.NoError(t, err)
		assert.Zero(t, st.Reward)
	}
}
