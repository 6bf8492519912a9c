package policy_test

import (
	"math/rand/v2"
	"testing"

	"github.com/gemgo/gemgo/algo"
	"github.com/gemgo/gemgo/policy"
	"github.com/gemgo/gemgo/policy/internal/refmodel"
)

// The reference workload of scripts/torchref: training steps of 32 × 32
// tokens with the weighted loss and Adam; sampling 16 new tokens after a
// 16-token prompt for 32 rows with the KV-cache sampler. Compare with
// torch_ref.sh at the same thread count (scripts/bench_policy.sh).

func benchTrain(b *testing.B, d int) {
	rng := rand.New(rand.NewPCG(1, 0))
	w, err := policy.NewWeights(refmodel.Config(d), rng)
	if err != nil {
		b.Fatal(err)
	}
	var batches [][]policy.Sequence
	for range 8 {
		_, s := refmodel.NewBatch(rng)
		batches = append(batches, s)
	}
	timeSteps(b, w, refmodel.Optim(), batches, refmodel.Loss(), 3)
	b.ReportMetric(float64(b.N*refmodel.Batch*refmodel.Seq)/b.Elapsed().Seconds(), "tokens/s")
}

// timeSteps times b.N training steps on w, cycling through batches, after
// warm untimed steps (the first ones build the graphs).
func timeSteps(b *testing.B, w *policy.Weights, oc policy.OptimConfig, batches [][]policy.Sequence, lc algo.LossConfig, warm int) {
	tr, err := policy.NewTrainer(w, oc)
	if err != nil {
		b.Fatal(err)
	}
	step := func(i int) {
		batch := batches[i%len(batches)]
		loss, err := algo.NewLoss(lc, batch)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := tr.Step(batch, 1, loss); err != nil {
			b.Fatal(err)
		}
	}
	for i := range warm {
		step(i)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		step(i)
	}
}

func BenchmarkTrainStep(b *testing.B) {
	b.Run("d=64", func(b *testing.B) { benchTrain(b, 64) })
	b.Run("d=128", func(b *testing.B) { benchTrain(b, 128) })
	b.Run("d=256", func(b *testing.B) { benchTrain(b, 256) })
}

func benchSample(b *testing.B, d int) {
	rng := rand.New(rand.NewPCG(2, 0))
	w, err := policy.NewWeights(refmodel.Config(d), rng)
	if err != nil {
		b.Fatal(err)
	}
	s := policy.NewSampler(w)
	prompts := refmodel.Prompts(rng, 16)
	sc := policy.SampleConfig{MaxNewTokens: 16, EOS: -1}
	if _, err := s.Sample(prompts, sc, rng); err != nil {
		b.Fatal(err)
	}
	tokens := 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		out, err := s.Sample(prompts, sc, rng)
		if err != nil {
			b.Fatal(err)
		}
		for _, o := range out {
			tokens += len(o.Tokens)
		}
	}
	b.ReportMetric(float64(tokens)/b.Elapsed().Seconds(), "tokens/s")
}

func BenchmarkSample(b *testing.B) {
	b.Run("d=64", func(b *testing.B) { benchSample(b, 64) })
	b.Run("d=128", func(b *testing.B) { benchSample(b, 128) })
	b.Run("d=256", func(b *testing.B) { benchSample(b, 256) })
}

// BenchmarkTrainStepRL is an RL update's shape: 64 turns of a multi-turn
// game, a 44-token prompt (the history) and a 5-token answer, with the
// vocabulary size of a built tokenizer (about 520) and the main job's
// model (2 layers, d = 64). Only the answer tokens carry loss.
func BenchmarkTrainStepRL(b *testing.B) {
	const vocab, prompt, answer, batch = 520, 44, 5, 64
	rng := rand.New(rand.NewPCG(3, 0))
	w, err := policy.NewWeights(policy.Config{Vocab: vocab, Context: 64, Layers: 2, DModel: 64, Heads: 4}, rng)
	if err != nil {
		b.Fatal(err)
	}
	seqs := make([]policy.Sequence, batch)
	for i := range seqs {
		s := &seqs[i]
		for range prompt {
			s.Prompt = append(s.Prompt, 4+rng.IntN(vocab-4))
		}
		for range answer {
			s.Response = append(s.Response, 4+rng.IntN(vocab-4))
			s.Advantages = append(s.Advantages, float32(rng.NormFloat64()))
		}
	}
	lc := algo.LossConfig{Kind: algo.PG, Agg: algo.TokenMean}
	timeSteps(b, w, policy.OptimConfig{LR: 1e-3, MaxGradNorm: 1}, [][]policy.Sequence{seqs}, lc, 1)
	b.ReportMetric(float64(b.N*batch)/b.Elapsed().Seconds(), "turns/s")
}

// BenchmarkSampleSharedPrompt is a round of first turns (or a batch of
// chat requests): 32 rows whose prompts are the same 20-token instructions
// and a 4-token tail of their own, each answered with 8 tokens, by a
// sampler whose cache holds nothing of them (the weights changed since
// its last call), on the reference model at d = 64.
func BenchmarkSampleSharedPrompt(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 0))
	w, err := policy.NewWeights(refmodel.Config(64), rng)
	if err != nil {
		b.Fatal(err)
	}
	instr := refmodel.Prompts(rng, 20)[0]
	var prompts [][]int
	for _, tail := range refmodel.Prompts(rng, 4) {
		prompts = append(prompts, append(append([]int(nil), instr...), tail...))
	}
	sc := policy.SampleConfig{MaxNewTokens: 8, EOS: -1}
	tokens := 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		out, err := policy.NewSampler(w).Sample(prompts, sc, rng)
		if err != nil {
			b.Fatal(err)
		}
		for _, o := range out {
			tokens += len(o.Tokens)
		}
	}
	b.ReportMetric(float64(tokens)/b.Elapsed().Seconds(), "tokens/s")
}
