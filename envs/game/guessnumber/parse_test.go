package guessnumber

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/envs"
)

func TestParseGuess(t *testing.T) {
	for _, tc := range []struct {
		in   string
		n    int
		text string
		ok   bool
	}{
		{"7", 7, "7", true},
		{"007", 7, "7", true},
		{"+7", 7, "7", true},
		{"-3", -3, "-3", true},
		{"0", 0, "0", true},
		{"99999999999999999999", math.MaxInt, "99999999999999999999", true},
		{"-000099999999999999999999", math.MinInt, "-99999999999999999999", true},
		{"1234567890123456789012345", math.MaxInt, "12345678901234567890...", true},
		{"", 0, "", false},
		{"-", 0, "", false},
		{"5.5", 0, "", false},
		{"5 6", 0, "", false},
		{"abc", 0, "", false},
		{"1e3", 0, "", false},
		{"٣", 0, "", false},
	} {
		n, text, ok := parseGuess(tc.in)
		assert.Equal(t, tc.ok, ok, tc.in)
		assert.Equal(t, tc.n, n, tc.in)
		assert.Equal(t, tc.text, text, tc.in)
	}
}

func FuzzParseGuess(f *testing.F) {
	for _, s := range []string{"7", "-0", "+12", "5.5", "abc", "", "999999999999999999999", "1 2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, text, ok := parseGuess(s)
		body := strings.TrimLeft(s, "+-")
		isInt := len(s)-len(body) <= 1 && body != "" && strings.Trim(body, "0123456789") == ""
		require.Equal(t, isInt, ok, "%q", s)
		if !ok {
			return
		}
		if v, err := strconv.Atoi(s); err == nil {
			require.Equal(t, v, n)
			require.Equal(t, strconv.Itoa(v), text)
		} else {
			require.True(t, n == math.MaxInt || n == math.MinInt, "%q -> %d", s, n)
			require.LessOrEqual(t, len(text), maxShown+4)
		}
	})
}

// FuzzStep checks that no action text can break a game: Step never errors
// inside an episode and every reward is one the rules allow.
func FuzzStep(f *testing.F) {
	for _, s := range []string{`\boxed{5}`, `\boxed{0}`, `\boxed{}`, `\boxed{\boxed{3}}`, `}{\boxed{`, "5"} {
		f.Add(s, uint64(1))
	}
	env, err := New(Config{Min: 1, Max: 10, MaxTurns: 2, Style: envs.StyleBrief})
	require.NoError(f, err)
	f.Fuzz(func(t *testing.T, action string, seed uint64) {
		_, _, err := env.Reset(seed)
		require.NoError(t, err)
		for range 2 {
			st, err := env.Step(action)
			require.NoError(t, err)
			require.True(t, st.Reward == envs.RewardFormatError || (st.Reward >= 0 && st.Reward <= 1), "reward %v", st.Reward)
			require.NotContains(t, st.Obs, "\n")
			if st.Done() {
				return
			}
		}
		t.Fatal("the episode must end by the turn limit")
	})
}
