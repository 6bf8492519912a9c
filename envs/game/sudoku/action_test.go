package sudoku

import (
	"testing"

	"github.com/gemgo/gemgo/envs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseAction(t *testing.T) {
	for in, want := range map[string]action{
		`\boxed{1 2 3}`:                       {1, 2, 3},
		`\boxed{9 9 9} no, \boxed{ 4, 5, 6 }`: {4, 5, 6},
		`\boxed{0 -1 12}`:                     {0, -1, 12},
	} {
		got, err := parseAction(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, got, in)
	}
	for _, in := range []string{"1 2 3", `\boxed{1 2}`, `\boxed{1 2 3 4}`, `\boxed{one 2 3}`, `\boxed{1.5 2 3}`} {
		_, err := parseAction(in)
		assert.Error(t, err, in)
	}
}

// FuzzParseAction: the parser never panics, and what it accepts prints back
// to an action that parses to the same move.
func FuzzParseAction(f *testing.F) {
	for _, s := range []string{`\boxed{1 2 3}`, `\boxed{1,2,3}`, `\boxed{1 2}`, `\boxed{{1} 2 3}`, ""} {
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
