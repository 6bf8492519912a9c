package game2048_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/envtest"
	"github.com/gemgo/gemgo/envs/game/game2048"
)

// TestConformance runs the env conformance suite on every level and style.
func TestConformance(t *testing.T) {
	r := envs.NewRegistry()
	require.NoError(t, game2048.Register(r))
	ids := r.IDs()
	require.Equal(t, []string{"game:Game2048-v0-easy", "game:Game2048-v0-hard", "game:Game2048-v0-random"}, ids)
	for _, id := range ids {
		require.NotEmpty(t, r.Description(id))
		for _, style := range []string{"gem", "brief"} {
			t.Run(id+"/"+style, func(t *testing.T) {
				envtest.CheckEnv(t, func() (envs.Env, error) { return r.Make(id, envs.With("style", style)) })
			})
		}
	}
}
