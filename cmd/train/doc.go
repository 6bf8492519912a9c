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
// iterations, and on Ctrl-C) and final.safetensors.
package main
