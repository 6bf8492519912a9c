package baselines

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/gemgo/gemgo/compare"
	"github.com/gemgo/gemgo/metrics"
)

// Report file names, in the suite's output directory.
const (
	ReportFile = "report.html"
	TableFile  = "table.md"
)

// Row is one entry's line of the table.
type Row struct {
	Name, Env string
	Ref       Reference
	HasRef    bool
	Sum       compare.ArmSummary
	Seeds     int // the suite's seeds: runs expected
}

// Rows summarises every entry's runs beside its reference play.
func Rows(s Suite, entries []Entry, runs []compare.Run, refs map[string]Reference) ([]Row, map[string][]compare.RunData) {
	l := compare.Load(s.spec(entries), runs)
	sums, byArm := l.Sums, l.ByArm
	var rows []Row
	for i, e := range entries {
		r, ok := refs[e.Name]
		rows = append(rows, Row{Name: e.Name, Env: e.Cfg.EnvLabel(), Ref: r, HasRef: ok, Sum: sums[i], Seeds: len(s.Seeds)})
	}
	return rows, byArm
}

func pct(x float64) string {
	if math.IsNaN(x) {
		return "–"
	}
	return fmt.Sprintf("%.3f", x)
}

// Table renders the rows as text cells (header first): random play (GEM's
// draw, with its Wilson 95% interval), the informed random player the
// config chose ("–" without one), the solver, trained greedy success (mean
// [95% bootstrap interval] over seeds), the gain over random play, the
// Verdict ("–" until every seed finished), env steps and wall time per run.
func Table(rows []Row) [][]string {
	out := [][]string{{"config", "env", "random [95% CI]", "informed random", "solver", "trained (mean [95% CI])", "trained − random", "vs random", "seeds", "env steps / run", "wall s / run"}}
	for _, r := range rows {
		random, informed, solver := "–", "–", "–"
		if r.HasRef {
			random = pct(r.Ref.Random)
			if lo, hi := r.Ref.RandomInterval(); !math.IsNaN(lo) {
				random = fmt.Sprintf("%s [%.3f, %.3f]", random, lo, hi)
			}
			if r.Ref.HasSampler {
				informed = pct(r.Ref.Sampler)
			}
			if r.Ref.HasSolver {
				solver = pct(r.Ref.Solver)
			} else {
				solver = "none"
			}
		}
		trained, gain := "–", "–"
		if f := r.Sum.Final; f.N > 0 {
			trained = fmt.Sprintf("%.3f [%.3f, %.3f]", f.Mean, f.Lo, f.Hi)
			if r.HasRef {
				gain = fmt.Sprintf("%+.3f", f.Mean-r.Ref.Random)
			}
		}
		verdict := Verdict(r)
		if verdict == "" {
			verdict = "–"
		}
		seeds := fmt.Sprintf("%d/%d", r.Sum.Complete, r.Seeds)
		steps, wall := "–", "–"
		if r.Sum.Steps.N > 0 {
			steps = fmt.Sprintf("%.0f", r.Sum.Steps.Mean)
		}
		if r.Sum.Wall.N > 0 {
			wall = fmt.Sprintf("%.0f", r.Sum.Wall.Mean)
		}
		out = append(out, []string{r.Name, r.Env, random, informed, solver, trained, gain, verdict, seeds, steps, wall})
	}
	return out
}

// WriteReport writes the suite's page: the table, then per entry its
// greedy success over env steps (mean over seeds with a bootstrap 95%
// band) with random play and the solver drawn as flat lines.
func WriteReport(path string, s Suite, rows []Row, byArm map[string][]compare.RunData, machine string) error {
	t := Table(rows)
	sections := []metrics.Section{metrics.Table("Baselines: final greedy success on the held-out seeds", t[0], t[1:]), metrics.Text("Against random play", Tally(rows))}
	if s.Notes != "" {
		sections = append([]metrics.Section{metrics.Text("About this suite", s.Notes)}, sections...)
	}
	rng := rand.New(rand.NewPCG(7, 8))
	for _, r := range rows {
		var cs []compare.Curve
		for _, d := range byArm[r.Name] {
			if d.Err == nil && d.Success.Valid() {
				cs = append(cs, d.Success)
			}
		}
		title := fmt.Sprintf("%s (%s)", r.Name, r.Env)
		g := compare.Grid(cs, 41)
		if g == nil {
			sections = append(sections, metrics.Text(title, "no run has logged an evaluation yet"))
			continue
		}
		b := compare.Aggregate(cs, g, 2000, rng)
		series := []metrics.Series{{Name: fmt.Sprintf("trained (%d seeds)", len(cs)), X: b.X, Y: b.Mean, Lower: b.CILo, Upper: b.CIHi}}
		flat := func(name string, y float64) {
			series = append(series, metrics.Series{Name: name, X: []float64{g[0], g[len(g)-1]}, Y: []float64{y, y}})
		}
		if r.HasRef {
			flat("random play", r.Ref.Random)
			if r.Ref.HasSampler {
				flat("informed random play", r.Ref.Sampler)
			}
			if r.Ref.HasSolver {
				flat("solver", r.Ref.Solver)
			}
		}
		sections = append(sections, metrics.LineChart(metrics.ChartSpec{Title: title, XName: "env steps", YName: "greedy success", YRange: [2]float64{0, 1}, Series: series}))
	}
	sub := fmt.Sprintf("%d configs × %d seeds · %s", len(rows), len(s.Seeds), machine)
	title := "gemgo baselines"
	if s.Name != "" {
		title += ": " + s.Name
	}
	return metrics.WritePage(path, title, sub, sections...)
}

// NewSummary is compare's summary.json for the suite's runs with each
// entry's env and reference play added.
func NewSummary(s Suite, rows []Row) compare.Summary {
	var sums []compare.ArmSummary
	refs := map[string]any{}
	for _, r := range rows {
		sums = append(sums, r.Sum)
		ref := map[string]any{"env": r.Env}
		if r.HasRef {
			ref["random"] = compare.Num(r.Ref.Random)
			ref["informed_random"] = compare.Num(r.Ref.Sampler)
			ref["solver"] = compare.Num(r.Ref.Solver)
			ref["episodes"] = r.Ref.Episodes
			lo, hi := r.Ref.RandomInterval()
			ref["random_ci"] = []any{compare.Num(lo), compare.Num(hi)}
			if v := Verdict(r); v != "" {
				ref["verdict"] = v
			}
		}
		refs[r.Name] = ref
	}
	sum := compare.NewSummary(s.Name, 0.5, sums, nil) // different envs: no pair is a comparison
	sum.Extra = map[string]any{"reference": refs}
	return sum
}
