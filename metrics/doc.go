// Package metrics records, shows and reports a training run's metrics.
//
// Of gemgo it imports only internal/atomicfile, for its file writes:
// callers hand it plain maps of metric names to values, named CleanRL-style
// by namespace ("charts/episodic_return", "losses/approx_kl",
// "perf/env_steps_per_s", "global/env_steps", "eval/success_rate").
//
//   - Logger appends one row per iteration to dir/metrics.jsonl (fsynced, a
//     crash loses at most the line being written) and keeps dir/metrics.csv
//     (header = every name seen so far). ReadJSONL loads the rows back.
//   - Progress shows a live bar on a terminal and one stable key=value line
//     per iteration elsewhere.
//   - WriteReport writes a self-contained HTML report: learning curves drawn
//     by ECharts (via go-echarts), the final evaluation, the last value of
//     every metric and the resolved config. Apache ECharts is embedded
//     (assets/) and inlined, so reports open offline and load nothing.
//
// The chart blocks are exported for other reports (a comparison of runs, for
// one): LineChart draws named series over an x axis, each optionally with a
// band (mean ± spread over seeds); Table, KeyValues and Text hold the rest;
// WritePage lays the sections out on one page.
//
// A training loop uses it as follows:
//
//	log, err := metrics.NewLogger(runDir)
//	prog := metrics.NewProgress(os.Stdout, iters, metrics.IsTerminal(os.Stdout))
//	for it := 1; it <= iters; it++ {
//		m := ... // the iteration's metrics
//		if err := log.Log(it, m); err != nil { ... }
//		prog.Update(it, m)
//		if it%5 == 0 || it == iters {
//			err = metrics.WriteReport(filepath.Join(runDir, "report.html"),
//				metrics.Report{Title: "...", Rows: log.Rows(), ConfigYAML: cfgText})
//		}
//	}
//	prog.Finish()
//	log.Close()
package metrics
