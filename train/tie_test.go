package train

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/envs/builtin"
	"github.com/gemgo/gemgo/policy"
)

// A run with model.tie_embeddings (set with -set, as a user would) warms up,
// trains with a critic and checkpoints a policy without wout; resuming it
// with the key flipped is refused, naming the key.
func TestTiedEmbeddingsRun(t *testing.T) {
	cfg := tinyConfig("ppo")
	cfg.Iterations = 2
	require.NoError(t, cfg.Set("model.tie_embeddings=true"))
	require.True(t, cfg.Model.TieEmbeddings)
	reg := builtin.Registry()
	dir := filepath.Join(t.TempDir(), "tied")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	obs := &recordObserver{cancelAfter: 1, cancel: cancel}
	_, err := Run(ctx, cfg, reg, Options{Dir: dir, Observer: obs})
	require.ErrorIs(t, err, ErrInterrupted)
	require.Len(t, obs.iters, 1)

	ck, err := policy.LoadCheckpoint(filepath.Join(dir, CheckpointFile))
	require.NoError(t, err)
	assert.True(t, ck.Policy.Config.TieEmbeddings)
	assert.Nil(t, ck.Policy.Param("wout"))
	assert.NotNil(t, ck.Critic)

	untied := cfg
	untied.Model.TieEmbeddings = false
	_, err = Run(context.Background(), untied, reg, Options{Dir: dir, Resume: true})
	assert.ErrorContains(t, err, "model.tie_embeddings")
}
