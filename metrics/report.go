package metrics

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
)

// XIteration is the x-axis key that plots against the row's iteration.
const XIteration = IterationKey

// Report is the content of a training run's HTML report.
//
// Greedy evaluations are plain metrics: log them under "eval/"
// (eval/success_rate, eval/episodic_return, ...) in the row of the iteration
// they follow; an evaluation before training is a row of iteration 0. The
// "Greedy evaluation" chart plots them.
type Report struct {
	Title    string
	Subtitle string // e.g. env id, algorithm and run directory
	Rows     []Row  // what the Logger logged (Logger.Rows or ReadJSONL)
	// X is the metric the charts plot against: "" picks global/env_steps when
	// logged, else the iteration; XIteration or any metric name (e.g.
	// global/wall_s) chooses.
	X          string
	Panels     []Panel     // the charts; nil means DefaultPanels()
	Summary    [][2]string // final evaluation and run summary, a two-column table
	ConfigYAML string      // the resolved config, shown as text
}

// Panel is one chart of a report: the named metrics over the report's x axis.
type Panel struct {
	Title  string
	YName  string
	Keys   []string   // metric names, one series each (named without namespace)
	Names  []string   // the series' names, one per key; nil: SeriesName of each key
	YRange [2]float64 // fixed y range; zero value: fit the data
}

// DefaultPanels returns the learning-curve charts of a training report, in
// page order. A panel none of whose metrics were logged is left out.
func DefaultPanels() []Panel {
	return []Panel{
		{Title: "Episodic return", YName: "return", Keys: []string{KeyReturn}},
		{Title: "Success rate", YName: "success rate", Keys: []string{KeySuccess}, YRange: [2]float64{0, 1}},
		{Title: "Greedy evaluation", YName: "value", Keys: []string{"eval/success_rate", "eval/episodic_return"}},
		{Title: "Turns per episode", YName: "turns", Keys: []string{"charts/turns", "eval/turns"}},
		{Title: "Losses", YName: "loss", Keys: []string{KeyPolicyLoss, "losses/value_loss"}},
		{Title: "KL divergence", YName: "KL", Keys: []string{"losses/approx_kl", "losses/kl"}},
		{Title: "Entropy", YName: "nats per token", Keys: []string{"losses/entropy"}},
		{Title: "Clip fraction", YName: "fraction", Keys: []string{"losses/clipfrac", "losses/value_clipfrac"}},
		{Title: "Throughput (env steps/s)", YName: "steps/s", Keys: []string{"perf/env_steps_per_s"}},
		{Title: "Throughput (sampled tokens/s)", YName: "tokens/s", Keys: []string{"perf/sampled_tokens_per_s"}},
	}
}

// XLabel returns the axis label of an x key: "env steps" for
// global/env_steps, "wall-clock seconds" for global/wall_s, "iteration" for
// XIteration, else the key itself.
func XLabel(key string) string {
	switch key {
	case KeyEnvSteps:
		return "env steps"
	case KeyWallSeconds:
		return "wall-clock seconds"
	case XIteration:
		return "iteration"
	}
	return key
}

// SeriesName is the name a chart gives a metric: its name without the
// namespace ("losses/policy_loss" → "policy_loss"), with the "eval/" of
// evaluation metrics kept as "eval ".
func SeriesName(key string) string {
	if rest, ok := strings.CutPrefix(key, "eval/"); ok {
		return "eval " + rest
	}
	if i := strings.LastIndexByte(key, '/'); i >= 0 {
		return key[i+1:]
	}
	return key
}

// Curve returns the points (x, y) of metric yKey over xKey (a metric name or
// XIteration) in row order, skipping rows that lack either. A row of
// iteration 0 lacking xKey is placed at x = 0 (an evaluation before
// training).
func Curve(rows []Row, xKey, yKey string) (x, y []float64) {
	for _, r := range rows {
		yv, ok := r.Metrics[yKey]
		if !ok {
			continue
		}
		xv, ok := xValue(r, xKey)
		if !ok {
			continue
		}
		x = append(x, xv)
		y = append(y, yv)
	}
	return x, y
}

func xValue(r Row, xKey string) (float64, bool) {
	if xKey == XIteration {
		return float64(r.Iteration), true
	}
	if v, ok := r.Metrics[xKey]; ok {
		return v, true
	}
	return 0, r.Iteration == 0
}

// ReportX resolves Report.X: the metric the charts plot against.
func ReportX(r Report) string {
	if r.X != "" {
		return r.X
	}
	for _, row := range r.Rows {
		if _, ok := row.Metrics[KeyEnvSteps]; ok {
			return KeyEnvSteps
		}
	}
	return XIteration
}

// Sections returns the report's page sections: the summary, the charts, the
// last logged value of every metric and the config.
func (r Report) Sections() []Section {
	var out []Section
	if len(r.Summary) > 0 {
		out = append(out, KeyValues("Final evaluation", r.Summary))
	}
	xKey := ReportX(r)
	panels := r.Panels
	if panels == nil {
		panels = DefaultPanels()
	}
	for _, p := range panels {
		spec := ChartSpec{Title: p.Title, XName: XLabel(xKey), YName: p.YName, YRange: p.YRange}
		for i, k := range p.Keys {
			x, y := Curve(r.Rows, xKey, k)
			if len(x) > 0 {
				name := SeriesName(k)
				if i < len(p.Names) {
					name = p.Names[i]
				}
				spec.Series = append(spec.Series, Series{Name: name, X: x, Y: y})
			}
		}
		if len(spec.Series) > 0 {
			out = append(out, LineChart(spec))
		}
	}
	if len(r.Rows) > 0 {
		out = append(out, lastValues(r.Rows))
	}
	if r.ConfigYAML != "" {
		out = append(out, Text("Config", r.ConfigYAML))
	}
	return out
}

// lastValues is a table of every metric's last logged value and iteration.
func lastValues(rows []Row) Section {
	type last struct {
		it int
		v  float64
	}
	seen := map[string]last{}
	for _, r := range rows {
		for k, v := range r.Metrics {
			seen[k] = last{r.Iteration, v}
		}
	}
	var table [][]string
	for _, k := range slices.Sorted(maps.Keys(seen)) {
		table = append(table, []string{k, FormatValue(seen[k].v), strconv.Itoa(seen[k].it)})
	}
	return Table("Last logged values", []string{"metric", "value", "iteration"}, table)
}

// FormatValue formats a metric value for a table: integers (counts) in full,
// other values to 4 significant digits, NaN as "–".
func FormatValue(v float64) string {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return "–"
	case v == math.Trunc(v) && math.Abs(v) < 1e15:
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

// WriteReport writes the run's HTML report to path, atomically. The page is
// self-contained and renders offline.
func WriteReport(path string, r Report) error {
	title := r.Title
	if title == "" {
		title = "Training report"
	}
	if err := WritePage(path, title, r.Subtitle, r.Sections()...); err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	return nil
}
