package minesweeper

import (
	"testing"

	"github.com/gemgo/gemgo/envs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseAction(t *testing.T) {
	for in, want := range map[string]action{
		`\boxed{reveal 1 2}`:                              {false, 1, 2},
		`think \boxed{flag 0 0} then \boxed{Reveal 3, 4}`: {false, 3, 4},
		`\boxed{ FLAG  7 -1 }`:                            {true, 7, -1},
	} {
		got, err := parseAction(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, got, in)
	}
	for _, in := range []string{"", "reveal 1 2", `\boxed{}`, `\boxed{reveal 1 2 3}`, `\boxed{dig 1 2}`, `\boxed{reveal x 2}`, `\boxed{reveal 99999999999999999999 1}`} {
		_, err := parseAction(in)
		assert.Error(t, err, in)
	}
}

// FuzzParseAction: the parser never panics, and what it accepts prints back
// to an action that parses to the same move.
func FuzzParseAction(f *testing.F) {
	for _, s := range []string{`\boxed{reveal 1 2}`, `\boxed{flag 0,0}`, `\boxed{reveal}`, `\boxed{\boxed{flag 1 1}}`, "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, err := parseAction(s)
		if err != nil {
			return
		}
		b, err := parseAction(envs.Boxed(a.String()))
		require.NoError(t, err)
		require.Equal(t, a, b)
	})
}
