package compare

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"

	"github.com/gemgo/gemgo/metrics"
	"github.com/gemgo/gemgo/stats"
	"github.com/gemgo/gemgo/train"
)

// Metric names read from each run's metrics.jsonl.
const (
	keySuccess     = "eval/success_rate"
	keySolvedTurns = "eval/solved_turns"
	keyEvalTurns   = "eval/turns"
	keyReturn      = "charts/episodic_return"
	keySteps       = "global/env_steps"
	keyWall        = "global/wall_s"
)

// Report settings.
const (
	gridPoints = 41   // x values each mean curve is drawn at
	resamples  = 2000 // bootstrap resamples per interval
	ReportFile = "report.html"
)

// RunData is one run's curves, read from its metrics.jsonl.
type RunData struct {
	Run                Run
	Iterations         int     // the last iteration logged
	Success, SuccessT  Curve   // greedy success over env steps and over wall-clock seconds
	Return             Curve   // training episodic return over env steps
	SolvedTurns, Turns Curve   // greedy turns of solved episodes, and of all, over env steps
	Wall               float64 // global/wall_s at the last logged iteration
	Steps              float64 // global/env_steps at the last logged iteration
	Stale              bool    // the run's config differs from the sweep file's now; Run.Cfg is the one it ran
	Err                error   // why the run has no data
}

// LoadRun reads a run's metrics. Iteration 0 (the evaluation before
// training) sits at x = 0 on both axes. When an iteration was logged twice
// (a run killed after logging it and resumed), the later row counts.
func LoadRun(r Run) RunData {
	d := RunData{Run: r, Wall: math.NaN(), Steps: math.NaN()}
	if have, err := os.ReadFile(filepath.Join(r.Dir, train.ConfigFile)); err == nil {
		// Report what ran: the base config may have changed since.
		if !SameConfig(have, r.Cfg) {
			ran, err := train.Parse(have, nil)
			if err != nil {
				d.Err = fmt.Errorf("%s: %s: %w", r.Dir, train.ConfigFile, err)
				return d
			}
			d.Run.Cfg, d.Stale = ran, true
		}
	}
	rows, err := metrics.ReadJSONL(filepath.Join(r.Dir, metrics.JSONLName))
	if err != nil {
		d.Err = err
		return d
	}
	byIt := map[int]metrics.Row{}
	for _, row := range rows {
		byIt[row.Iteration] = row
	}
	its := slices.Sorted(func(yield func(int) bool) {
		for it := range byIt {
			if !yield(it) {
				return
			}
		}
	})
	add := func(c *Curve, x, y float64) {
		if math.IsNaN(x) || (len(c.X) > 0 && x <= c.X[len(c.X)-1]) {
			return
		}
		c.X, c.Y = append(c.X, x), append(c.Y, y)
	}
	for _, it := range its {
		m := byIt[it].Metrics
		d.Iterations = it
		steps, wall := 0.0, 0.0
		if it > 0 {
			steps, wall = value(m, keySteps), value(m, keyWall)
			d.Wall, d.Steps = wall, steps
		}
		if v, ok := m[keyReturn]; ok {
			add(&d.Return, steps, v)
		}
		s, ok := m[keySuccess]
		if !ok {
			continue
		}
		add(&d.Success, steps, s)
		add(&d.SuccessT, wall, s)
		add(&d.Turns, steps, value(m, keyEvalTurns))
		solved := value(m, keySolvedTurns)
		if s == 0 {
			solved = math.NaN() // no solved episode: no turn count
		}
		add(&d.SolvedTurns, steps, solved)
	}
	if len(d.Success.X) == 0 {
		d.Err = fmt.Errorf("%s: no evaluation logged yet", r.Dir)
	}
	return d
}

func value(m map[string]float64, k string) float64 {
	if v, ok := m[k]; ok {
		return v
	}
	return math.NaN()
}

// ArmSummary is one arm's figures over its seeds.
type ArmSummary struct {
	Arm         string
	Runs        int // runs with data
	Complete    int // runs that reached the last iteration
	Final       stats.Stat
	AUC         stats.Stat
	Reach       stats.Stat // env steps to the threshold, over the seeds that reached it
	Reached     int
	Wall        stats.Stat
	SolvedTurns stats.Stat // at the final evaluation, over seeds that solved any
	Turns       stats.Stat
	Steps       stats.Stat   // env steps at the last logged iteration
	PerSeed     []SeedResult // the runs with data, in the order of the sweep's seeds
}

// SeedResult is one run's figures.
type SeedResult struct {
	Seed        uint64  `json:"seed"`
	Complete    bool    `json:"complete"`
	Final       float64 `json:"final_success"`
	AUC         float64 `json:"auc"`
	Steps       float64 `json:"env_steps"`
	WallS       float64 `json:"wall_s"`
	SolvedTurns float64 `json:"solved_turns"` // NaN (null) when no episode was solved
}

// summarizeArm summarises the runs of one arm.
func summarizeArm(arm string, data []RunData, threshold float64, rng *rand.Rand) ArmSummary {
	s := ArmSummary{Arm: arm}
	var final, auc, reach, wall, solved, turns, steps []float64
	for _, d := range data {
		if d.Err != nil {
			continue
		}
		s.Runs++
		complete := d.Iterations >= d.Run.Cfg.Iterations
		if complete {
			s.Complete++
		}
		final = append(final, Final(d.Success))
		auc = append(auc, AUC(d.Success))
		steps = append(steps, d.Steps)
		s.PerSeed = append(s.PerSeed, SeedResult{Seed: d.Run.Seed, Complete: complete, Final: Final(d.Success),
			AUC: AUC(d.Success), Steps: d.Steps, WallS: d.Wall, SolvedTurns: Final(d.SolvedTurns)})
		if x, ok := Reach(d.Success, threshold); ok {
			s.Reached++
			reach = append(reach, x)
		}
		wall = append(wall, d.Wall)
		solved = append(solved, Final(d.SolvedTurns))
		turns = append(turns, Final(d.Turns))
	}
	s.Final = stats.Summarize(final, resamples, rng)
	s.AUC = stats.Summarize(auc, resamples, rng)
	s.Reach = stats.Summarize(reach, resamples, rng)
	s.Wall = stats.Summarize(wall, resamples, rng)
	s.SolvedTurns = stats.Summarize(solved, resamples, rng)
	s.Turns = stats.Summarize(turns, resamples, rng)
	s.Steps = stats.Summarize(steps, resamples, rng)
	return s
}

// FormatStat renders "mean ± std [lo, hi]" with the given precision, or "–"
// when nothing was measured.
func FormatStat(s stats.Stat, prec int) string {
	if s.N == 0 {
		return "–"
	}
	return fmt.Sprintf("%.*f ± %.*f [%.*f, %.*f]", prec, s.Mean, prec, s.Std, prec, s.Lo, prec, s.Hi)
}

// Loaded is a sweep's runs read once, with each arm's summary: the report,
// the printed table and the summary file are all made from one Loaded, so
// they agree even while runs are still writing their metrics.
type Loaded struct {
	Spec  Spec
	Runs  []Run                // the planned runs, in the spec's order
	Sums  []ArmSummary         // one per arm, in the spec's order
	ByArm map[string][]RunData // each arm's runs as read
}

// Load reads every run and summarises each arm, in the spec's order.
func Load(spec Spec, runs []Run) Loaded {
	byArm := map[string][]RunData{}
	for _, r := range runs {
		byArm[r.Arm] = append(byArm[r.Arm], LoadRun(r))
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var sums []ArmSummary
	for _, a := range spec.Arms {
		sums = append(sums, summarizeArm(a.Name, byArm[a.Name], spec.Threshold, rng))
	}
	return Loaded{Spec: spec, Runs: runs, Sums: sums, ByArm: byArm}
}

// SummaryTable renders the summaries as rows of text (header first).
func SummaryTable(sums []ArmSummary, threshold float64) [][]string {
	rows := [][]string{{"arm", "runs", "final greedy success", "AUC (success × env steps)",
		fmt.Sprintf("env steps to success ≥ %.2f", threshold), "reached", "wall time (s)",
		"turns of solved episodes", "turns (all episodes)"}}
	for _, s := range sums {
		rows = append(rows, []string{s.Arm, fmt.Sprintf("%d (%d complete)", s.Runs, s.Complete),
			FormatStat(s.Final, 3), FormatStat(s.AUC, 3), FormatStat(s.Reach, 0),
			fmt.Sprintf("%d/%d", s.Reached, s.Runs), FormatStat(s.Wall, 0),
			FormatStat(s.SolvedTurns, 2), FormatStat(s.Turns, 2)})
	}
	return rows
}

// WriteReport writes the sweep's comparison page to path: per arm the mean
// greedy success (with a bootstrap 95% band over seeds) against env steps
// and against wall-clock seconds, the training return, the greedy turns of
// solved episodes, the summary table and the configs used.
func WriteReport(path string, l Loaded) error {
	spec, runs, sums, byArm := l.Spec, l.Runs, l.Sums, l.ByArm
	rng := rand.New(rand.NewPCG(3, 4))
	pick := func(d RunData, which string) Curve {
		switch which {
		case "wall":
			return d.SuccessT
		case "return":
			return d.Return
		case "solved":
			return d.SolvedTurns
		}
		return d.Success
	}
	chart := func(title, xName, yName, which string, yRange [2]float64) metrics.Section {
		var series []metrics.Series
		for _, a := range spec.Arms {
			var cs []Curve
			for _, d := range byArm[a.Name] {
				if c := pick(d, which); d.Err == nil && c.Valid() {
					cs = append(cs, c)
				}
			}
			g := Grid(cs, gridPoints)
			if g == nil {
				continue
			}
			b := Aggregate(cs, g, resamples, rng)
			series = append(series, metrics.Series{Name: fmt.Sprintf("%s (%d seeds)", a.Name, len(cs)),
				X: b.X, Y: b.Mean, Lower: b.CILo, Upper: b.CIHi})
		}
		if len(series) == 0 {
			return metrics.Text(title, "no run has logged this yet")
		}
		return metrics.LineChart(metrics.ChartSpec{Title: title, XName: xName, YName: yName, YRange: yRange, Series: series})
	}
	unit := [2]float64{0, 1}
	sections := []metrics.Section{
		metrics.Table("Summary (mean ± std over seeds [bootstrap 95% interval of the mean])", nil, SummaryTable(sums, spec.Threshold)),
	}
	if len(sums) > 1 {
		pt := PairTable(SweepPairs(sums))
		sections = append(sections, metrics.Table(fmt.Sprintf("Pairs of arms: paired permutation test over seeds (two-sided; separable at p < %.2f)", Alpha), pt[0], pt[1:]))
	}
	sections = append(sections,
		chart("Greedy success vs env steps (mean, 95% band)", "env steps", "success rate", "success", unit),
		chart("Greedy success vs wall-clock (mean, 95% band)", "wall-clock seconds", "success rate", "wall", unit),
		chart("Training episodic return vs env steps (mean, 95% band)", "env steps", "return", "return", [2]float64{}),
		chart("Greedy turns of solved episodes vs env steps", "env steps", "turns", "solved", [2]float64{}),
	)
	sections = append(sections, metrics.Table("Runs", []string{"arm", "seed", "directory", "iterations logged", "status"}, runRows(runs, byArm)))
	// What ran (a run directory keeps its config even when the sweep's base
	// changed later).
	var ran []Run
	for _, r := range runs {
		for _, d := range byArm[r.Arm] {
			if d.Run.Dir == r.Dir {
				ran = append(ran, d.Run)
			}
		}
	}
	if warn := checkRan(spec, ran); warn != "" {
		sections = append([]metrics.Section{metrics.Text("Warning: not an apple-to-apple comparison", warn)}, sections...)
	}
	runs = ran
	if c := l.StepsCaution(); c != "" {
		sections = append([]metrics.Section{metrics.Text("Caution: unequal env steps", c)}, sections...)
	}
	if diff := configDiff(spec, runs); len(diff) > 1 {
		sections = append(sections, metrics.Table("What differs between arms (everything else is equal)", diff[0], diff[1:]))
	}
	for _, a := range spec.Arms {
		for _, r := range runs {
			if r.Arm == a.Name {
				y, err := r.Cfg.Marshal()
				if err != nil {
					return err
				}
				sections = append(sections, metrics.Text(fmt.Sprintf("Config of arm %s (seed %d; other seeds differ only in seed and name)", a.Name, r.Seed), string(y)))
				break
			}
		}
	}
	subtitle := fmt.Sprintf("%d arms × %d seeds · threshold %.2f · bands: percentile bootstrap 95%% interval of the mean over seeds", len(spec.Arms), len(spec.Seeds), spec.Threshold)
	if spec.Notes != "" {
		sections = append([]metrics.Section{metrics.Text("About this sweep", spec.Notes)}, sections...)
	}
	title := "gemgo comparison"
	if spec.Name != "" {
		title += ": " + spec.Name
	}
	return metrics.WritePage(path, title, subtitle, sections...)
}

func runRows(runs []Run, byArm map[string][]RunData) [][]string {
	var rows [][]string
	for _, r := range runs {
		status, its := "no data", "0"
		for _, d := range byArm[r.Arm] {
			if d.Run.Dir != r.Dir {
				continue
			}
			its = fmt.Sprint(d.Iterations)
			switch {
			case d.Err != nil:
				status = d.Err.Error()
			case d.Stale:
				status = fmt.Sprintf("%d of %d iterations; ran with a config that differs from the sweep file now (the config shown is the one it ran)", d.Iterations, d.Run.Cfg.Iterations)
			case d.Iterations >= d.Run.Cfg.Iterations:
				status = "complete"
			default:
				status = fmt.Sprintf("partial (%d of %d iterations)", d.Iterations, d.Run.Cfg.Iterations)
			}
		}
		rows = append(rows, []string{r.Arm, fmt.Sprint(r.Seed), r.Dir, its, status})
	}
	return rows
}
