package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/builtin"
	"github.com/gemgo/gemgo/train"
)

// Every shipped training config parses strictly, validates, names a
// registered env (each entry's, for a mixture) with valid options, and says in its header what it trains.
func TestShippedConfigs(t *testing.T) {
	paths, err := filepath.Glob("../../configs/*.yaml")
	require.NoError(t, err)
	reg := builtin.Registry()
	n := 0
	for _, p := range paths {
		if strings.HasPrefix(filepath.Base(p), "compare_") {
			continue // sweep files: cmd/compare tests them
		}
		n++
		t.Run(filepath.Base(p), func(t *testing.T) {
			cfg, err := train.LoadFile(p, nil)
			require.NoError(t, err)
			assert.Equal(t, strings.TrimSuffix(filepath.Base(p), ".yaml"), cfg.Name, "name matches the file")
			todo := []train.EnvConfig{cfg.Env}
			if len(cfg.Env.Mix) > 0 { // a mixture: each entry's env
				todo = nil
				for _, e := range cfg.EvalEnvs() {
					todo = append(todo, e.Env)
				}
				require.Len(t, todo, len(cfg.Env.Mix))
			}
			for _, ec := range todo {
				env, err := reg.Make(ec.ID, envs.FromMap(ec.Options)...)
				require.NoError(t, err)
				_, _, err = env.Reset(1)
				require.NoError(t, err)
			}
		})
	}
	assert.GreaterOrEqual(t, n, 7, "rebn/reinforce/grpo/ppo on GuessTheNumber and at least three more envs")
}
