// Package baselines trains one config per env on the same seeds and tables
// the results beside what each env gives untrained: the paper's baseline
// table, reproducible on a laptop.
//
// A suite file (Suite, read strictly from YAML) lists training config
// files, one per env, and the seeds. Every config × seed is one run in
// OUT/<config>/seed<k>/, executed by compare.Execute: a finished run is
// skipped on a re-run and an interrupted one resumes from its checkpoint,
// so a suite can be run in pieces, by several processes one after the
// other. References plays each env's random player with GEM's draw (the
// config's options without envs.SampleOption) and, where the env has one,
// its solver on the very held-out seeds the runs are evaluated on (eval.Run,
// in OUT/<config>/reference/, resumable the same way); where the config
// chooses an informed random player with that option (the one its warm-up
// imitates), that player too, in OUT/<config>/reference/sampler/; a config
// that sets the option in warmup.options alone (a teacher for the warm-up,
// RL and the evaluation playing the env's own options) has the teacher
// played there.
//
// The table (Table) has per config: random-play success (GEM's draw) with
// its Wilson 95% interval over the episodes played, the informed random
// player's, solver success, trained final greedy success with a
// percentile-bootstrap 95% interval over seeds, the gain over random play,
// the Verdict (the trained interval above, at or below random play's: they
// are apart or overlap), env steps and wall time per run; Tally counts the
// verdicts under the table.
// WriteReport draws it with one curve per config (mean over seeds, 95%
// band, random play and the solver as flat lines) on one offline HTML
// page; NewSummary is the same as summary.json.
package baselines
