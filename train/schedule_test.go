package train

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/envs/builtin"
)

// The cosine decay of the learning rate follows the iterations, never the
// optimizer steps an iteration happens to make: with twice the episodes an
// iteration, or a game of more turns, the last optimizer step of the
// midpoint iteration still trains at the cosine's midpoint value and that
// of the last iteration at its floor. (A decay by optimizer steps ends
// early or late as soon as the steps per iteration differ from its
// estimate; the runs below differ in their steps up to threefold.)
func TestCosineFollowsIterations(t *testing.T) {
	base := tinyConfig("rebn")
	base.Iterations = 4
	base.Eval.Episodes = 0
	base.Checkpoint.Every = 0
	base.Optim.Cosine = true
	base.Optim.LR = 0.01
	base.Optim.MinLRFrac = 0.1
	base.Algo.MinibatchSize = 4 // so that more transitions make more optimizer steps
	doubled := base
	doubled.Rollout.Episodes *= 2
	longer := base
	longer.Env.ID = "game:GuessTheNumber-v0-hard"
	longer.Warmup = WarmupConfig{Steps: 150, BatchSize: 16, LR: 0.01, Transcript: true} // answers in the format, so games run long

	const mid, floor = 0.01 * (0.1 + 0.9*0.5), 0.01 * 0.1
	steps := map[string]float64{}
	turns := map[string]float64{}
	for _, tc := range []struct {
		name string
		cfg  Config
	}{{"base", base}, {"doubled episodes", doubled}, {"longer game", longer}} {
		require.NoError(t, tc.cfg.Validate(), tc.name)
		obs := &recordObserver{}
		_, err := Run(context.Background(), tc.cfg, builtin.Registry(), Options{Dir: filepath.Join(t.TempDir(), "run"), Observer: obs})
		require.NoError(t, err, tc.name)
		require.Len(t, obs.iters, 4, tc.name)
		for i, m := range obs.iters {
			require.Contains(t, m, "charts/learning_rate", "%s: iteration %d updated the policy", tc.name, i+1)
			steps[tc.name] += m["losses/optimizer_steps"]
		}
		last := obs.iters[3]
		turns[tc.name] = last["global/env_steps"] / last["global/episodes"]
		assert.InDelta(t, mid, obs.iters[1]["charts/learning_rate"], 1e-15, "%s: the midpoint iteration (2 of 4)", tc.name)
		assert.InDelta(t, floor, last["charts/learning_rate"], 1e-15, "%s: the last iteration", tc.name)
		assert.Greater(t, obs.iters[0]["charts/learning_rate"], mid, "%s: the first iteration is above the midpoint", tc.name)
		assert.Less(t, obs.iters[2]["charts/learning_rate"], mid, "%s: the third is below it", tc.name)
	}
	t.Logf("optimizer steps %v, turns per episode %v", steps, turns)
	assert.Greater(t, steps["doubled episodes"], steps["base"], "twice the episodes make more optimizer steps")
	assert.Greater(t, turns["longer game"], turns["base"], "the hard game's episodes take more turns")
	assert.Greater(t, steps["longer game"], steps["base"])
}

// lrScale is the cosine's value at it/iterations, by iteration alone: 1
// without optim.cosine.
func TestLRScaleByIteration(t *testing.T) {
	c := DefaultConfig()
	c.Iterations = 10
	c.Optim.MinLRFrac = 0
	for it, want := range map[int]float64{0: 1, 5: 0.5, 10: 0} {
		assert.InDelta(t, want, c.lrScale(it), 1e-15, "iteration %d", it)
	}
	c.Rollout.Episodes *= 2
	assert.InDelta(t, 0.5, c.lrScale(5), 1e-15, "the episodes do not move it")
	c.Optim.Cosine = false
	assert.Equal(t, 1.0, c.lrScale(10))
}
