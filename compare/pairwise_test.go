package compare

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/stats"
)

func TestPairsPairBySeedAndSayWhatTheyFound(t *testing.T) {
	a := ArmSummary{Arm: "a", PerSeed: []SeedResult{
		{Seed: 1, Complete: true, Final: 0.9, AUC: 0.5}, {Seed: 2, Complete: true, Final: 0.8, AUC: 0.5}, {Seed: 3, Complete: true, Final: 1, AUC: 0.6},
		{Seed: 4, Complete: true, Final: 0.7, AUC: 0.4}, {Seed: 5, Complete: true, Final: 0.95, AUC: 0.5}, {Seed: 6, Complete: true, Final: 0.9, AUC: 0.5}}}
	// b's seeds in another order, one missing (seed 6) and one extra (7).
	b := ArmSummary{Arm: "b", PerSeed: []SeedResult{
		{Seed: 5, Complete: true, Final: 0.5, AUC: 0.5}, {Seed: 1, Complete: true, Final: 0.4, AUC: 0.5}, {Seed: 2, Complete: true, Final: 0.3, AUC: 0.5},
		{Seed: 3, Complete: true, Final: 0.6, AUC: 0.6}, {Seed: 4, Complete: true, Final: 0.2, AUC: 0.4}, {Seed: 7, Complete: true, Final: 0, AUC: 0}}}
	pairs := Pairs([]ArmSummary{a, b}, 500, rand.New(rand.NewPCG(1, 2)))
	require.Len(t, pairs, 3)
	fin, auc := pairs[0], pairs[1]
	assert.Equal(t, "solved_turns", pairs[2].Metric)
	assert.Equal(t, "final", fin.Metric)
	assert.Equal(t, 5, fin.Seeds, "seeds 1-5 are common")
	assert.InDelta(t, 0.47, fin.Diff.Mean, 1e-12) // (0.5+0.5+0.4+0.5+0.45)/5
	assert.InDelta(t, 0.0625, fin.P, 1e-15)       // every difference positive: 2/32
	assert.False(t, fin.Separable())
	assert.Equal(t, "not separable: the arms differ on 5 of 5 seeds, too few to reach p < 0.05", fin.Verdict())
	// AUC: every common seed's difference is 0.
	assert.Equal(t, 1.0, auc.P)
	assert.Equal(t, 1.0, auc.MinP)
	assert.Equal(t, "equal on every seed", auc.Verdict())

	// With the sixth seed in b too, all six differences positive: separable.
	b.PerSeed = append(b.PerSeed, SeedResult{Seed: 6, Complete: true, Final: 0.1, AUC: 0.5})
	fin = Pairs([]ArmSummary{a, b}, 500, rand.New(rand.NewPCG(1, 2)))[0]
	assert.InDelta(t, 2.0/64, fin.P, 1e-15)
	assert.True(t, fin.Separable())
	assert.Equal(t, "a higher (p < 0.05)", fin.Verdict())
	// A run still going is not paired.
	b.PerSeed[0].Complete = false // seed 5
	assert.Equal(t, 5, Pairs([]ArmSummary{a, b}, 500, rand.New(rand.NewPCG(1, 2)))[0].Seeds)
	b.PerSeed[0].Complete = true
	fin = Pairs([]ArmSummary{b, a}, 500, rand.New(rand.NewPCG(1, 2)))[0]
	assert.Equal(t, "a higher (p < 0.05)", fin.Verdict(), "the order of the arms does not change the winner")
	assert.Less(t, fin.Diff.Mean, 0.0)
}

func TestWriteSummaryTurnsNaNIntoNull(t *testing.T) {
	sums := []ArmSummary{{Arm: "x", Runs: 1, Final: stats.Stat{N: 1, Mean: 0.5, Lo: 0.5, Hi: 0.5},
		Reach:   stats.Stat{Mean: math.NaN(), Std: math.NaN(), Lo: math.NaN(), Hi: math.NaN()},
		PerSeed: []SeedResult{{Seed: 1, Complete: true, Final: 0.5, SolvedTurns: math.NaN()}}}}
	path := filepath.Join(t.TempDir(), SummaryFile)
	require.NoError(t, WriteSummary(path, NewSummary("s", 0.5, sums, SweepPairs(sums))))
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	var back map[string]any
	require.NoError(t, json.Unmarshal(data, &back))
	arm := back["arms"].([]any)[0].(map[string]any)
	assert.Nil(t, arm["env_steps_to_threshold"].(map[string]any)["mean"])
	assert.Equal(t, 0.5, arm["final_success"].(map[string]any)["mean"])
	seed := arm["per_seed"].([]any)[0].(map[string]any)
	assert.Nil(t, seed["solved_turns"])
	assert.Equal(t, []any{}, back["pairs"])
}
