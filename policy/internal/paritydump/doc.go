// Command paritydump trains the reference model of scripts/torchref with
// package policy for five steps and writes the dump that
// `torch_ref.sh --parity DIR` compares against PyTorch: meta.json (parameter
// names and shapes, the five losses), weights.bin (initial weights),
// grads0.bin (gradients of batch 0 before the first step) and batches.bin
// (five batches of int32 tokens, int32 targets, float32 weights).
//
//	go run ./policy/internal/paritydump -d 64 -out DIR
package main
