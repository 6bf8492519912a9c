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
)

func TestPairedTestExactValues(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	// Five equal positive differences: only the pattern itself and its
	// mirror reach |sum| = 5 out of 32.
	assert.InDelta(t, 2.0/32, PairedTest([]float64{1, 1, 1, 1, 1}, 0, rng), 1e-15)
	assert.InDelta(t, MinPairedP(5), PairedTest([]float64{0.2, 0.3, 0.1, 0.4, 0.5}, 0, rng), 1e-15)
	// Six: 2/64 < 0.05.
	assert.InDelta(t, 2.0/64, PairedTest([]float64{1, 2, 3, 4, 5, 6}, 0, rng), 1e-15)
	// {1, −1}: the sums are −2, 0, 0, 2; the observed 0 is reached by all.
	assert.Equal(t, 1.0, PairedTest([]float64{1, -1}, 0, rng))
	// {3, 1}: sums 4, 2, −2, −4; |sum| ≥ 4 for 2 of 4.
	assert.Equal(t, 0.5, PairedTest([]float64{3, 1}, 0, rng))
	// {3, 1, 1}: the 8 sums are ±5, ±3, ±1, ±1 (flipping one of the 1s), so
	// |sum| ≥ 5 for 2 patterns, ≥ 3 for 4.
	assert.Equal(t, 0.25, PairedTest([]float64{3, 1, 1}, 0, rng))
	assert.Equal(t, 0.75, PairedTest([]float64{3, -1, 1}, 0, rng), "observed |sum| 3: ±5, ±3, ±3 reach it")
	// Zeros never change the sum: p is that of the nonzero ones.
	assert.Equal(t, 0.5, PairedTest([]float64{3, 0, 1, 0}, 0, rng))
	assert.Equal(t, 1.0, PairedTest(nil, 0, rng))
	assert.Equal(t, 1.0, PairedTest([]float64{0, 0, 0}, 0, rng))
	assert.Equal(t, 1.0, MinPairedP(0))
	assert.Equal(t, 0.0625, MinPairedP(5))
}

// A brute-force count over the patterns, written as plainly as possible.
func bruteP(d []float64) float64 {
	n := len(d)
	obs := 0.0
	for _, x := range d {
		obs += x
	}
	hits := 0
	for mask := 0; mask < 1<<n; mask++ {
		s := 0.0
		for i := range n {
			if mask>>i&1 == 1 {
				s -= d[i]
			} else {
				s += d[i]
			}
		}
		if math.Abs(s) >= math.Abs(obs)-1e-9 {
			hits++
		}
	}
	return float64(hits) / float64(int(1)<<n)
}

func TestPairedTestProperties(t *testing.T) {
	for seed := range uint64(300) {
		r := rand.New(rand.NewPCG(seed, 9))
		d := make([]float64, 1+r.IntN(10))
		for i := range d {
			d[i] = float64(r.IntN(7)-3) / 4 // ties and zeros are common
		}
		p := PairedTest(d, 0, r)
		require.InDelta(t, bruteP(d), p, 1e-12, "d=%v", d)
		// p is a probability no smaller than the pattern and its mirror.
		require.True(t, p > 0 && p <= 1)
		require.GreaterOrEqual(t, p, MinPairedP(nonzero(d))-1e-15)
		// The test is symmetric in the sign and the order of the pairs.
		neg := make([]float64, len(d))
		for i := range d {
			neg[len(d)-1-i] = -d[i]
		}
		require.InDelta(t, p, PairedTest(neg, 0, r), 1e-12)
	}
	// Beyond 16 pairs the sampled p-value is close to the exact one; 20
	// pairs of +1: the exact p is 2/2^20, the sampled one (hits+1)/(n+1).
	d := make([]float64, 20)
	for i := range d {
		d[i] = 1
	}
	p := PairedTest(d, 4000, rand.New(rand.NewPCG(3, 3)))
	assert.InDelta(t, 1.0/4001, p, 2.0/4001, "almost no pattern reaches the observed sum")
	// 20 differences with mean near 0: p near 1.
	for i := range d {
		d[i] = float64(i%2*2 - 1)
	}
	p = PairedTest(d, 4000, rand.New(rand.NewPCG(3, 3)))
	assert.Greater(t, p, 0.95)
}

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
	sums := []ArmSummary{{Arm: "x", Runs: 1, Final: Stat{N: 1, Mean: 0.5, Lo: 0.5, Hi: 0.5},
		Reach:   Stat{Mean: math.NaN(), Std: math.NaN(), Lo: math.NaN(), Hi: math.NaN()},
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
