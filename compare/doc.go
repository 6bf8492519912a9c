// Package compare runs apple-to-apple comparisons of training setups and
// reports them.
//
// A sweep (Spec, read strictly from YAML) is one base training config, a
// list of arms (each a name and a few key=value overrides, e.g.
// algo.name=grpo) and a list of seeds. Every arm × seed is one train.Run in
// OUT/<arm>/seed<k>/. Everything that sets the cost or the yardstick of a run
// is checked to be equal across arms before anything runs: the env, the
// model, the tokenizer, the format warm-up, the number of iterations, the
// sample budget (rollout.steps: env steps, which count GRPO's groups too) and
// the held-out evaluation seeds.
//
// Runs execute in parallel (Execute). A finished run is skipped on a re-run
// and an interrupted one resumes from its checkpoint, so an interrupted
// sweep continues where it stopped.
//
// With share_warmup: true the arms of a seed start from one format warm-up
// (sharedwarmup.go): the first run of the seed shares its finished warm-up
// in OUT/warmups/seed<k>.safetensors and the others resume from a copy, so
// a sweep of n arms trains n times fewer warm-ups and gives the same runs
// to the bit. The arms must then agree on everything the warm-up reads.
//
// The aggregation math (aggregate.go) is pure: curves aligned on a common x
// grid, mean and bands over seeds (std and a seeded percentile-bootstrap 95%
// interval of the mean, from package stats, as is pairwise.go's paired
// permutation test), the normalised area under a curve, the x at which a
// curve first reaches a threshold, and summaries over seeds. WriteReport
// draws one offline HTML page from a sweep's run directories.
package compare
