package train

import (
	"fmt"
	"path/filepath"
	"strconv"

	"github.com/gemgo/gemgo/metrics"
)

// writeReport renders the run's HTML report from the metrics logged so far.
func (r *runner) writeReport() error {
	if r.log == nil {
		return nil
	}
	res := r.result()
	summary := [][2]string{
		{"env", r.cfg.EnvLabel()},
		{"algorithm", r.cfg.Algo.Name},
		{"iterations", fmt.Sprintf("%d of %d", res.Iterations, r.cfg.Iterations)},
		{"env steps", strconv.Itoa(res.EnvSteps)},
		{"episodes", strconv.Itoa(res.Episodes)},
		{"training time", res.Wall.Round(1e9).String()},
		{"best greedy success", fmt.Sprintf("%.3f", res.BestSuccess)},
	}
	if e := r.last; e.Episodes > 0 {
		summary = append(summary,
			[2]string{"last evaluation", fmt.Sprintf("iteration %d, %d held-out episodes", e.Iteration, e.Episodes)},
			[2]string{"greedy success", fmt.Sprintf("%.3f", e.SuccessRate)},
			[2]string{"greedy return", fmt.Sprintf("%.3f", e.MeanReturn)},
			[2]string{"sampled success", fmt.Sprintf("%.3f", e.SampledSuccessRate)},
			[2]string{"turns (all / solved)", fmt.Sprintf("%.2f / %.2f", e.MeanTurns, e.SolvedTurns)},
		)
		for _, p := range e.PerEnv {
			summary = append(summary, [2]string{"greedy / sampled success: " + p.Name,
				fmt.Sprintf("%.3f / %.3f", p.SuccessRate, p.SampledSuccessRate)})
		}
	}
	return metrics.WriteReport(filepath.Join(r.dir, ReportFile), metrics.Report{
		Title:      "gemgo: " + r.cfg.Name,
		Subtitle:   fmt.Sprintf("%s · %s · %s", r.cfg.EnvLabel(), r.cfg.Algo.Name, r.dir),
		Rows:       r.log.Rows(),
		Panels:     r.panels(),
		Summary:    summary,
		ConfigYAML: string(r.cfgYAML),
	})
}

// panels are the report's charts: metrics.DefaultPanels, and with a
// mixture or eval.envs one curve per env of the training success
// (charts/success_rate/NAME) and of the greedy and sampled evaluation
// (eval/success_rate/NAME, eval/sampled_success_rate/NAME). Nil (the
// default panels) for one env.
func (r *runner) panels() []metrics.Panel {
	if len(r.mixNames) == 0 && len(r.targets) == 0 {
		return nil
	}
	out := metrics.DefaultPanels()
	byEnv := func(title, prefix string, names []string) metrics.Panel {
		p := metrics.Panel{Title: title, YName: "success rate", YRange: [2]float64{0, 1}, Names: names}
		for _, n := range names {
			p.Keys = append(p.Keys, prefix+n)
		}
		return p
	}
	if len(r.mixNames) > 0 {
		out = append(out, byEnv("Success rate by env", "charts/success_rate/", r.mixNames))
	}
	var evalNames []string
	for _, t := range r.targets {
		evalNames = append(evalNames, t.name)
	}
	if len(evalNames) > 0 {
		out = append(out, byEnv("Greedy evaluation by env", "eval/success_rate/", evalNames),
			byEnv("Sampled evaluation by env", "eval/sampled_success_rate/", evalNames))
	}
	return out
}
