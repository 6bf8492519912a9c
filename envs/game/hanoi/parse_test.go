package hanoi

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/envs"
)

func TestParseMove(t *testing.T) {
	for _, tc := range []struct {
		in       string
		from, to int
		ok       bool
	}{
		{"A C", 0, 2, true},
		{"a c", 0, 2, true},
		{"AC", 0, 2, true},
		{"B->A", 1, 0, true},
		{"c, b", 2, 1, true},
		{"A → C", 0, 2, true},
		{"from A to C", 0, 2, true},
		{"A TO B", 0, 1, true},
		{"A=>C", 0, 2, true},
		{"A A", 0, 0, true},
		{"", 0, 0, false},
		{"A", 0, 0, false},
		{"A B C", 0, 0, false},
		{"A D", 0, 0, false},
		{"1 3", 0, 0, false},
		{"move A to C", 0, 0, false},
		{"A;C", 0, 0, false},
	} {
		from, to, ok := parseMove(tc.in)
		assert.Equal(t, tc.ok, ok, tc.in)
		if tc.ok {
			assert.Equal(t, tc.from, from, tc.in)
			assert.Equal(t, tc.to, to, tc.in)
		}
	}
}

func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"A C", "a->b", "from c to a", "ABC", "", "→", "tofrom"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		from, to, ok := parseMove(s)
		if !ok {
			return
		}
		require.True(t, from >= 0 && from < 3 && to >= 0 && to < 3, "%q -> %d %d", s, from, to)
		// Exactly two peg letters, in order; the rest is separators and words.
		var letters []byte
		rest := strings.NewReplacer("→", "", "from", "", "FROM", "", "to", "", "TO", "").Replace(s)
		for i := 0; i < len(rest); i++ {
			if c := rest[i] | 0x20; c >= 'a' && c <= 'c' {
				letters = append(letters, c)
			}
		}
		if !strings.ContainsAny(strings.ToLower(s), "tf") {
			require.Equal(t, []byte{byte('a' + from), byte('a' + to)}, letters, "%q", s)
		}
	})
}

// FuzzStep checks that no action text can break a game: Step never errors
// inside an episode, every reward is one the rules allow and the disks stay
// a legal tower.
func FuzzStep(f *testing.F) {
	for _, s := range []string{`\boxed{A C}`, `\boxed{a b}`, `\boxed{}`, `\boxed{C A}`, `}{\boxed{`} {
		f.Add(s, s)
	}
	env, err := New(Config{Level: Level{3, 7}, Style: envs.StyleBrief})
	require.NoError(f, err)
	f.Fuzz(func(t *testing.T, a1, a2 string) {
		_, _, err := env.Reset(0)
		require.NoError(t, err)
		for i := range 7 {
			a := a1
			if i%2 == 1 {
				a = a2
			}
			st, err := env.Step(a)
			require.NoError(t, err)
			for _, peg := range env.pegs {
				for k := 1; k < len(peg); k++ {
					require.Greater(t, peg[k-1], peg[k], "a larger disk on a smaller one: %v", env.pegs)
				}
			}
			require.Equal(t, 3, len(env.pegs[0])+len(env.pegs[1])+len(env.pegs[2]))
			r := st.Reward
			require.True(t, r == envs.RewardFormatError || r == 0 || r == 1.0/3 || r == 2.0/3 || r == 1, "reward %v", r)
			if st.Done() {
				return
			}
		}
		t.Fatal("the episode must end by the turn limit")
	})
}
