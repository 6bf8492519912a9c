package sudoku_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/envtest"
	"github.com/gemgo/gemgo/envs/game/sudoku"
)

// TestConformance runs the env conformance suite on every level and style.
func TestConformance(t *testing.T) {
	r := envs.NewRegistry()
	require.NoError(t, sudoku.Register(r))
	ids := r.IDs()
	require.Equal(t, []string{"game:Sudoku-v0-easy", "game:Sudoku-v0-hard", "game:Sudoku-v0-random"}, ids)
	for _, id := range ids {
		require.NotEmpty(t, r.Description(id))
		for _, style := range []string{"gem", "brief"} {
			t.Run(id+"/"+style, func(t *testing.T) {
				envtest.CheckEnv(t, func() (envs.Env, error) { return r.Make(id, envs.With("style", style)) })
			})
		}
	}
}
