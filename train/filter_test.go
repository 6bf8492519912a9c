package train

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/envs/builtin"
)

// With rollout.filter_groups every update sees only groups whose returns
// differ, never more of them than one batch holds, and the charts and
// counters count every episode played, kept or not.
func TestFilterGroups(t *testing.T) {
	cfg := tinyConfig("grpo")
	cfg.Iterations = 6
	cfg.Rollout.FilterGroups = true
	cfg.Rollout.MaxGenBatches = 3
	cfg.Warmup.Steps = 100 // enough to win some games, so groups differ
	obs := &recordObserver{}
	res, err := Run(context.Background(), cfg, builtin.Registry(), Options{Dir: filepath.Join(t.TempDir(), "f"), Observer: obs})
	require.NoError(t, err)
	require.Len(t, obs.iters, 6)
	played, updates := 0.0, 0
	for i, m := range obs.iters {
		gen, kept := m["charts/gen_batches"], m["charts/kept_groups"]
		assert.True(t, gen >= 1 && gen <= 3, "iteration %d played %v batches", i+1, gen)
		assert.True(t, kept >= 0 && kept <= 2, "iteration %d kept %v groups of a batch of 2", i+1, kept)
		assert.True(t, kept == 2 || gen == 3, "iteration %d stopped at %v batches with %v groups", i+1, gen, kept)
		assert.Equal(t, 8*gen, m["charts/episodes"], "every episode played is counted")
		played += m["charts/episodes"]
		if _, ok := m["losses/loss"]; ok {
			updates++
			assert.Zero(t, m["charts/zero_adv_groups"], "iteration %d trained on a group with no spread", i+1)
		} else {
			assert.Zero(t, kept, "iteration %d kept groups but did not update", i+1)
		}
	}
	assert.Positive(t, updates, "some iteration found groups with spread")
	assert.Equal(t, int(played), res.Episodes)
}
