// Command train trains a transformer policy on a gemgo env with an RL
// algorithm, as a YAML config says:
//
//	go run ./cmd/train -config configs/rebn_guess.yaml
//	go run ./cmd/train -config rebn_guess -set algo.gamma=0.8 -set iterations=50
//	go run ./cmd/train -resume runs/rebn_guess
//
// The run directory (-out, default runs/, plus the config's name) receives
// config.yaml (the resolved config), metrics.jsonl and metrics.csv (one row
// per iteration), report.html (learning curves, updated during training;
// it opens offline), checkpoint.safetensors (every checkpoint.every
// iterations, and on Ctrl-C) and final.safetensors. A warm-up is saved to
// warmup.safetensors every 500 steps, at its end and on Ctrl-C, until the
// first checkpoint; -resume continues it to the same weights.
//
// A config file is decoded over train.DefaultConfig (the whole-history
// recipe of configs/rebn_guess_obs.yaml) and may start from another file
// with base: other.yaml (relative to itself). -print-config prints the
// resolved config, after the file, its base, -set and -seed, and exits;
// the keys it lists are those -set accepts.
//
// -cpuprofile FILE writes a CPU profile of the run for go tool pprof, and
// -memprofile FILE the heap the run still holds when it ends;
// scripts/bench_loop.sh times the main job's loop (metrics perf/*).
//
// The run holds a lock on its directory (the file .lock there) while it
// runs: a second train on the same directory is refused. A new run that
// fails before its first iteration removes the directory it made.
//
// Exit status: 0 when the run finished (and for -h and -print-config), 1
// when it failed, 2 on a bad command line or config, 130 when an interrupt
// (Ctrl-C, or SIGTERM) stopped it (its checkpoint or warm-up is saved:
// continue with -resume). A second signal exits at once with 130,
// saving nothing; the last checkpoint stays whole.
package main
