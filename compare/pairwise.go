package compare

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/gemgo/gemgo/stats"
)

// Alpha is the significance level a pair of arms is called separable at.
const Alpha = 0.05

// Pair compares two arms on one metric over the seeds both finished.
type Pair struct {
	A, B   string     // arm names; Diff is A − B
	Metric string     // "final" (final greedy success), "auc" or "solved_turns" (greedy turns per solved episode at the end)
	Seeds  int        // seeds both arms have a value for
	Differ int        // of those, the seeds on which the arms differ
	Diff   stats.Stat // the per-seed differences A − B: mean, std, bootstrap 95% interval
	P      float64    // stats.PairedTest's two-sided p-value
	MinP   float64    // the smallest p-value this many seeds allow (stats.MinPairedP)
}

// Separable reports whether the arms differ at p < Alpha.
func (p Pair) Separable() bool { return p.Seeds > 0 && p.P < Alpha }

// Verdict says in words what the test found.
func (p Pair) Verdict() string {
	switch {
	case p.Seeds == 0:
		return "no common seeds"
	case p.Differ == 0:
		return "equal on every seed"
	case p.Separable() && p.Diff.Mean > 0:
		return fmt.Sprintf("%s higher (p < %.2f)", p.A, Alpha)
	case p.Separable():
		return fmt.Sprintf("%s higher (p < %.2f)", p.B, Alpha)
	case p.MinP >= Alpha:
		return fmt.Sprintf("not separable: the arms differ on %d of %d seeds, too few to reach p < %.2f", p.Differ, p.Seeds, Alpha)
	}
	return "not separable"
}

// Pairs runs, over the seeds both arms finished, the paired test on final success, on AUC and on the final
// turns per solved episode for every pair of arms (in the order of sums),
// pairing runs by seed (a seed whose run solved nothing has no turn count
// and is left out of that metric).
func Pairs(sums []ArmSummary, resamples int, rng *rand.Rand) []Pair {
	var out []Pair
	for i := range sums {
		for j := i + 1; j < len(sums); j++ {
			a, b := sums[i], sums[j]
			for _, m := range []struct {
				name string
				of   func(SeedResult) float64
			}{
				{"final", func(s SeedResult) float64 { return s.Final }},
				{"auc", func(s SeedResult) float64 { return s.AUC }},
				{"solved_turns", func(s SeedResult) float64 { return s.SolvedTurns }},
			} {
				d := diffs(a.PerSeed, b.PerSeed, m.of)
				k := stats.Nonzero(d)
				p := Pair{A: a.Arm, B: b.Arm, Metric: m.name, Seeds: len(d), Differ: k, MinP: stats.MinPairedP(k)}
				p.Diff = stats.Summarize(d, resamples, rng)
				p.P = stats.PairedTest(d, resamples, rng)
				out = append(out, p)
			}
		}
	}
	return out
}

// SweepPairs is Pairs as a sweep's report and summary.json compute it: the
// report's resamples, from a fixed seed (the same runs, the same file).
func SweepPairs(sums []ArmSummary) []Pair {
	return Pairs(sums, resamples, rand.New(rand.NewPCG(5, 6)))
}

// diffs returns of(a) − of(b) for each seed whose runs both arms
// finished, in seed order (a run still going has no final value yet).
func diffs(a, b []SeedResult, of func(SeedResult) float64) []float64 {
	byA := map[uint64]float64{}
	for _, s := range a {
		if s.Complete {
			byA[s.Seed] = of(s)
		}
	}
	var seeds []uint64
	for _, s := range b {
		if _, ok := byA[s.Seed]; ok && s.Complete {
			seeds = append(seeds, s.Seed)
		}
	}
	slices.Sort(seeds)
	byB := map[uint64]float64{}
	for _, s := range b {
		byB[s.Seed] = of(s)
	}
	var d []float64
	for _, sd := range seeds {
		x := byA[sd] - byB[sd]
		if !math.IsNaN(x) {
			d = append(d, x)
		}
	}
	return d
}

// PairTable renders the pairs as rows of text (header first).
func PairTable(pairs []Pair) [][]string {
	rows := [][]string{{"A", "B", "metric", "seeds", "A − B (mean ± std [bootstrap 95%])", "paired permutation p", "verdict"}}
	for _, p := range pairs {
		rows = append(rows, []string{p.A, p.B, p.Metric, fmt.Sprint(p.Seeds), FormatStat(p.Diff, 3),
			fmt.Sprintf("%.4f", p.P), p.Verdict()})
	}
	return rows
}
