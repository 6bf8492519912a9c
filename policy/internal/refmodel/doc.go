// Package refmodel builds the reference benchmark model and workload of
// scripts/torchref (the PyTorch yardstick) with package policy: the model
// shape, the synthetic arithmetic-sequence batches and the weighted
// log-likelihood loss. The parity dump and the benchmarks share it.
package refmodel
