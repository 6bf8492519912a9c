package fifteen

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/envs"
)

func TestParseDir(t *testing.T) {
	for _, tc := range []struct {
		in  string
		dir int
		ok  bool
	}{
		{"up", up, true},
		{"UP", up, true},
		{"Down", down, true},
		{"l", left, true},
		{"R", right, true},
		{"", 0, false},
		{"upward", 0, false},
		{"u p", 0, false},
		{"north", 0, false},
		{"x", 0, false},
	} {
		d, ok := parseDir(tc.in)
		assert.Equal(t, tc.ok, ok, tc.in)
		if tc.ok {
			assert.Equal(t, tc.dir, d, tc.in)
		}
	}
}

func FuzzParseDir(f *testing.F) {
	for _, s := range []string{"up", "DOWN", "l", "", "righty", "ü"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, ok := parseDir(s)
		low := strings.ToLower(s)
		want := false
		for _, name := range dirNames {
			if low == name || low == name[:1] {
				want = true
			}
		}
		// EqualFold also folds a few non-ASCII runes onto ASCII letters (the
		// Kelvin sign onto k, the long s onto s), none of them a letter of
		// up, down, left or right: lower-casing is an exact oracle here.
		require.Equal(t, want, ok, "%q", s)
		if ok {
			require.True(t, strings.EqualFold(s, dirNames[d]) || strings.EqualFold(s, dirNames[d][:1]))
		}
	})
}

// FuzzStep checks that no action text can break a game: Step never errors
// inside an episode, every reward is allowed and the board stays a
// permutation.
func FuzzStep(f *testing.F) {
	for _, s := range []string{`\boxed{up}`, `\boxed{l}`, `\boxed{}`, `\boxed{Right}`, `}{\boxed{`} {
		f.Add(s, s, uint64(1))
	}
	env, err := New(Config{Level: Level{3, 6}, Style: envs.StyleBrief})
	require.NoError(f, err)
	f.Fuzz(func(t *testing.T, a1, a2 string, seed uint64) {
		_, _, err := env.Reset(seed)
		require.NoError(t, err)
		for i := range 6 {
			a := a1
			if i%2 == 1 {
				a = a2
			}
			st, err := env.Step(a)
			require.NoError(t, err)
			seen := make([]bool, 9)
			for _, v := range env.b.cells {
				require.False(t, seen[v])
				seen[v] = true
			}
			require.Equal(t, 0, env.b.cells[env.b.blank])
			ok := st.Reward == envs.RewardFormatError || st.Reward == 1
			for k := 0; k <= 8; k++ {
				ok = ok || st.Reward == float64(k)/8
			}
			require.True(t, ok, "reward %v", st.Reward)
			if st.Done() {
				return
			}
		}
		t.Fatal("the episode must end by the turn limit")
	})
}
