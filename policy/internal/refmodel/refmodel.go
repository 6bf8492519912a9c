package refmodel

import (
	"math/rand/v2"

	"github.com/gemgo/gemgo/algo"
	"github.com/gemgo/gemgo/policy"
)

// Sizes of the reference workload.
const (
	Batch  = 32 // sequences per training step
	Seq    = 32 // positions per sequence (the model's context)
	Vocab  = 64
	Layers = 2
	Heads  = 4
	// NoLoss is the number of leading positions whose target carries no
	// weight; they form the prompt (NoLoss+1 tokens).
	NoLoss = 4
)

// Config is the reference model of width d (64 or 128).
func Config(d int) policy.Config {
	return policy.Config{Vocab: Vocab, Context: Seq, Layers: Layers, DModel: d, Heads: Heads}
}

// Loss is the reference loss −Σ w·log p(target) / (Batch·Seq): the plain
// policy-gradient term with the advantage as the weight, summed over tokens
// and divided by sequences × Seq.
func Loss() algo.LossConfig {
	return algo.LossConfig{Kind: algo.PG, Agg: algo.SeqMeanTokenSumNorm, NormLen: Seq}
}

// Step is one training step of tr with the reference loss on seqs (at
// temperature 1).
func Step(tr *policy.Trainer, seqs []policy.Sequence) (policy.Stats, error) {
	loss, err := algo.NewLoss(Loss(), seqs)
	if err != nil {
		return policy.Stats{}, err
	}
	return tr.Step(seqs, 1, loss)
}

// Optim is the reference optimizer: Adam, lr 1e-3, no clipping or decay.
func Optim() policy.OptimConfig { return policy.OptimConfig{LR: 1e-3} }

// RawBatch is one synthetic batch in the reference's layout: tokens and
// targets (Batch × Seq, row-major) and per-token weights.
type RawBatch struct {
	Tokens, Targets []int32
	Weights         []float32
}

// NewBatch draws a batch like the reference's make_batch: each row is an
// arithmetic sequence mod Vocab with start uniform in 0..Vocab−1 and stride
// in {1, 2, 3}; weights are one advantage in [0.5, 1.5) per row at
// positions ≥ NoLoss and 0 before. (The draws come from rng, not torch's
// generator: the parity check reads the batches from the dump.)
func NewBatch(rng *rand.Rand) (RawBatch, []policy.Sequence) {
	rb := RawBatch{Tokens: make([]int32, Batch*Seq), Targets: make([]int32, Batch*Seq), Weights: make([]float32, Batch*Seq)}
	seqs := make([]policy.Sequence, Batch)
	for b := range Batch {
		start, stride := rng.IntN(Vocab), 1+rng.IntN(3)
		adv := float32(0.5 + rng.Float64())
		full := make([]int, Seq+1)
		for t := range full {
			full[t] = (start + t*stride) % Vocab
		}
		for t := range Seq {
			rb.Tokens[b*Seq+t] = int32(full[t])
			rb.Targets[b*Seq+t] = int32(full[t+1])
			if t >= NoLoss {
				rb.Weights[b*Seq+t] = adv
			}
		}
		s := policy.Sequence{Prompt: full[:NoLoss+1], Response: full[NoLoss+1:]}
		for range s.Response {
			s.Advantages = append(s.Advantages, adv)
		}
		seqs[b] = s
	}
	return rb, seqs
}

// Prompts returns Batch prompts of n tokens from a fresh synthetic batch
// (the sampling benchmark's workload).
func Prompts(rng *rand.Rand, n int) [][]int {
	_, seqs := NewBatch(rng)
	out := make([][]int, len(seqs))
	for i, s := range seqs {
		full := append(append([]int(nil), s.Prompt...), s.Response...)
		out[i] = full[:n]
	}
	return out
}
