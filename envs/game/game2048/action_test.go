package game2048

import (
	"testing"

	"github.com/gemgo/gemgo/envs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseAction(t *testing.T) {
	for in, want := range map[string]dir{
		`\boxed{left}`:                  left,
		`\boxed{up} or \boxed{ Right }`: right,
		`\boxed{DOWN}`:                  down,
		`\boxed{uP}`:                    up,
	} {
		got, err := parseAction(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, got, in)
	}
	for _, in := range []string{"up", `\boxed{upp}`, `\boxed{up up}`, `\boxed{0}`} {
		_, err := parseAction(in)
		assert.Error(t, err, in)
	}
}

// FuzzParseAction: the parser never panics, and what it accepts prints back
// to an action that parses to the same move.
func FuzzParseAction(f *testing.F) {
	for _, s := range []string{`\boxed{left}`, `\boxed{UP}`, `\boxed{}`, `\boxed{\boxed{down}}`, "right"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := parseAction(s)
		if err != nil {
			return
		}
		require.True(t, d >= left && d <= down)
		d2, err := parseAction(envs.Boxed(d.String()))
		require.NoError(t, err)
		require.Equal(t, d, d2)
	})
}
