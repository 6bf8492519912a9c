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
		{"env", r.cfg.Env.ID},
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
	}
	return metrics.WriteReport(filepath.Join(r.dir, ReportFile), metrics.Report{
		Title:      "gemgo: " + r.cfg.Name,
		Subtitle:   fmt.Sprintf("%s · %s · %s", r.cfg.Env.ID, r.cfg.Algo.Name, r.dir),
		Rows:       r.log.Rows(),
		Summary:    summary,
		ConfigYAML: string(r.cfgYAML),
	})
}
