// Command compare runs a sweep of training setups × seeds, everything else
// held equal, and writes an HTML comparison report.
//
//	go run ./cmd/compare -config configs/compare_guess.yaml
//
// A bare -config name is looked up in configs/. Runs go to -out (default
// runs/compare/<sweep name>)/<arm>/seed<k>/ and the report to
// -out/report.html. Running the same command again skips finished runs and
// resumes interrupted ones; Ctrl-C or SIGTERM stops cleanly (each running
// run saves a checkpoint; a second signal exits at once). -print-config prints the sweep as it will run, with every
// arm's resolved training config, and exits.
//
// A sweep with share_warmup: true (e.g. configs/compare_mastermind.yaml)
// trains one format warm-up per seed, kept in -out/warmups/seed<k>.safetensors,
// and starts every arm of the seed from it: the runs are the same to the
// bit as with a warm-up each (package compare, sharedwarmup.go).
//
// Exit status: 0 when every run finished (and for -h and -print-config), 1
// when one failed, 2 on a bad command line or sweep, 130 when an interrupt
// stopped the sweep.
//
// -shard i/n (0-based i; by default from SLURM_ARRAY_TASK_ID or
// JOB_COMPLETION_INDEX with -shards n) does only shard i's runs into the
// shared -out, -merge writes the results once every shard is done (or
// lists the missing shards and their commands), and -emit slurm|k8s prints
// a job array that runs the shards: docs/scale.md.
package main
