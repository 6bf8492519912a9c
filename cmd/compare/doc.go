// Command compare runs a sweep of training setups × seeds, everything else
// held equal, and writes an HTML comparison report.
//
//	go run ./cmd/compare -config configs/compare_guess.yaml
//
// A bare -config name is looked up in configs/. Runs go to -out (default
// runs/compare/<sweep name>)/<arm>/seed<k>/ and the report to
// -out/report.html. Running the same command again skips finished runs and
// resumes interrupted ones; Ctrl-C stops cleanly (each running run saves a
// checkpoint).
package main
