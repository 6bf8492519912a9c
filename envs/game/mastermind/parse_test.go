package mastermind

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/envs"
)

func TestParseGuess(t *testing.T) {
	for _, tc := range []struct {
		in  string
		out []int
		n   int
		ok  bool
	}{
		{"1 2 3 4", []int{1, 2, 3, 4}, 4, true},
		{"1,2,3,4", []int{1, 2, 3, 4}, 4, true},
		{" 1 ,\t2 ", []int{1, 2}, 2, true},
		{"1234", []int{1, 2, 3, 4}, 4, true},
		{"7", []int{7}, 1, true},
		{"12 3", []int{12, 3}, 2, true},
		{"123 4", []int{bigNumber, 4}, 2, true},
		{"", nil, 0, false},
		{",,", nil, 0, false},
		{"1 2 x", nil, 0, false},
		{"-1 2", nil, 0, false},
		{"1.2", nil, 0, false},
	} {
		out, n, ok := parseGuess(tc.in, nil)
		assert.Equal(t, tc.ok, ok, tc.in)
		assert.Equal(t, tc.n, n, tc.in)
		if tc.ok {
			assert.Equal(t, tc.out, out, tc.in)
		}
	}
}

func FuzzParseGuess(f *testing.F) {
	for _, s := range []string{"1 2 3 4", "1234", "1,2", "", "12 345", "a", strings.Repeat("9", 40)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out, n, ok := parseGuess(s, make([]int, 0, maxParsed))
		allowed := strings.Trim(s, "0123456789 \t,\r\n") == "" && strings.ContainsAny(s, "0123456789")
		require.Equal(t, allowed, ok, "%q", s)
		if !ok {
			return
		}
		require.Equal(t, min(n, maxParsed), len(out))
		require.GreaterOrEqual(t, n, 1)
		for _, v := range out {
			require.True(t, v >= 0 && v <= bigNumber, "%q -> %v", s, out)
		}
	})
}

// FuzzStep checks that no action text can break a game: Step never errors
// inside an episode and every reward is one the rules allow.
func FuzzStep(f *testing.F) {
	for _, s := range []string{`\boxed{1 2 3 4}`, `\boxed{1111}`, `\boxed{}`, `\boxed{9 9 9 9}`, `}{\boxed{`} {
		f.Add(s, uint64(1))
	}
	env, err := New(Config{Level: Level{4, 8, 3}, Style: envs.StyleBrief})
	require.NoError(f, err)
	f.Fuzz(func(t *testing.T, action string, seed uint64) {
		_, _, err := env.Reset(seed)
		require.NoError(t, err)
		for range 3 {
			st, err := env.Step(action)
			require.NoError(t, err)
			ok := st.Reward == envs.RewardFormatError || st.Reward == 0 || st.Reward == 0.25 || st.Reward == 0.5 || st.Reward == 0.75 || st.Reward == 1
			require.True(t, ok, "reward %v", st.Reward)
			require.NotContains(t, st.Obs, "\n")
			if st.Done() {
				return
			}
		}
		t.Fatal("the episode must end by the turn limit")
	})
}
