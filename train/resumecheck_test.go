package train

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"
)

// oldConfigYAML is cfg's YAML as a build before the decay followed the
// iterations saved it in a checkpoint: with optim.total_steps.
func oldConfigYAML(t *testing.T, cfg Config, totalSteps int) []byte {
	data, err := cfg.Marshal()
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, yaml.Unmarshal(data, &m))
	m["optim"].(map[string]any)["total_steps"] = totalSteps
	out, err := yaml.Marshal(m)
	require.NoError(t, err)
	return out
}

// A checkpoint from before the cosine decay followed the iterations: with
// a decay its remaining learning rates would change, so the resume is
// refused, naming the old key and what to do; without one the rate was
// constant then as now, so the run continues and config.yaml is rewritten
// without the key.
func TestResumeCheckpointWithStepSchedule(t *testing.T) {
	cfg := DefaultConfig()
	now, err := cfg.Marshal()
	require.NoError(t, err)
	for _, total := range []int{0, 10800} {
		_, err = checkResumeConfig("runs/x", oldConfigYAML(t, cfg, total), cfg, now)
		require.Error(t, err, "total_steps %d", total)
		assert.ErrorContains(t, err, "followed optimizer steps")
		assert.ErrorContains(t, err, "start a new run")
		assert.Contains(t, err.Error(), "optim.total_steps = "+map[int]string{0: "0", 10800: "10800"}[total])
	}

	cfg.Optim.Cosine = false
	now, err = cfg.Marshal()
	require.NoError(t, err)
	changed, err := checkResumeConfig("runs/x", oldConfigYAML(t, cfg, 0), cfg, now)
	require.NoError(t, err)
	assert.True(t, changed, "config.yaml is rewritten without the old key")

	// Any other difference is still refused, by name.
	old := oldConfigYAML(t, cfg, 0)
	cfg.Algo.Gamma = 0.7
	later, err := cfg.Marshal()
	require.NoError(t, err)
	_, err = checkResumeConfig("runs/x", old, cfg, later)
	assert.ErrorContains(t, err, "algo.gamma (0.9 → 0.7)")
	assert.NotContains(t, err.Error(), "total_steps")

	// An unchanged checkpoint of today is not changed.
	changed, err = checkResumeConfig("runs/x", now, cfg, now)
	require.NoError(t, err)
	assert.False(t, changed)
}
