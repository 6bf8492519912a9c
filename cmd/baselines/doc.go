// Command baselines trains every config of a suite (configs/baselines/ by
// default) on the suite's seeds and writes the baseline table: random
// play, the solver and the trained greedy success per env.
//
//	go run ./cmd/baselines                       # the whole suite, 2 runs at once
//	go run ./cmd/baselines -only guess_easy,count_bits
//	go run ./cmd/baselines -report               # only redraw from what ran
//
// Output (runs/baselines by default): one run directory per config and
// seed, the reference play per config, table.md, report.html and
// summary.json. Re-running skips what finished and resumes what was
// interrupted; Ctrl-C or SIGTERM lets the running runs save a checkpoint
// (a second one exits at once).
//
// Exit status: 0 when every run finished and the table is written (and
// for -h), 1 when a run or a reference failed, 2 on a bad command line or
// suite, 130 when an interrupt stopped the suite.
//
// -shard i/n (0-based i; by default from SLURM_ARRAY_TASK_ID or
// JOB_COMPLETION_INDEX with -shards n) does only shard i's runs into the
// shared -out, -merge writes the results once every shard is done (or
// lists the missing shards and their commands), and -emit slurm|k8s prints
// a job array that runs the shards: docs/scale.md.
package main
