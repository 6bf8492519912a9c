package train

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/envtest"
	"github.com/gemgo/gemgo/rollout"
)

// panicky is envtest.Toy that panics in Step on the episode of seed bad,
// as a buggy user env would.
type panicky struct {
	toy       *envtest.Toy
	bad, seed uint64
}

func (e *panicky) Reset(seed uint64) (string, envs.Info, error) {
	e.seed = seed
	return e.toy.Reset(seed)
}

func (e *panicky) Step(a string) (envs.Step, error) {
	if e.seed == e.bad {
		var moves []string
		_ = moves[len(a)] // a runtime panic: index out of range
	}
	return e.toy.Step(a)
}

func (e *panicky) SampleAction(r *rand.Rand) string { return e.toy.SampleAction(r) }

func TestEnvPanicInRolloutIsAnError(t *testing.T) {
	cfg := tinyConfig("rebn")
	cfg.Env.ID = "user:Panicky-v0"
	cfg.Env.Options = nil
	// The first iteration hands group g to slot g: slot 3 meets the bad seed.
	bad := rollout.SeedSequence(cfg.Seed, 1)(3)
	reg := envs.NewRegistry()
	require.NoError(t, reg.Register(cfg.Env.ID, func(*envs.Options) (envs.Env, error) {
		return &panicky{toy: envtest.NewToy(3), bad: bad}, nil
	}))
	_, err := Run(context.Background(), cfg, reg, Options{Dir: filepath.Join(t.TempDir(), "run")})
	require.Error(t, err)
	assert.ErrorContains(t, err, fmt.Sprintf("iteration 1: rollout: user:Panicky-v0: env 3 (seed %d): step: panic:", bad))
	assert.ErrorContains(t, err, "index out of range")
	var pe *envs.PanicError
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, 3, pe.Index)
	assert.False(t, errors.Is(err, ErrInterrupted))
}
