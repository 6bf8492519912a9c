package policy_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/gemgo/gemgo/policy"
)

// A tiny policy learns one response by supervised steps, then the greedy
// KV-cache sampler writes it back.
func ExampleTrainer() {
	cfg := policy.Config{Vocab: 16, Context: 16, Layers: 1, DModel: 16, Heads: 2}
	w, err := policy.NewWeights(cfg, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		panic(err)
	}
	tr, err := policy.NewTrainer(w, policy.OptimConfig{LR: 1e-2})
	if err != nil {
		panic(err)
	}
	const eos = 15
	batch := []policy.Sequence{{Prompt: []int{1, 7, 2}, Response: []int{9, 4, 4, eos}}}
	for range 100 {
		if _, err := tr.SupervisedStep(batch); err != nil {
			panic(err)
		}
	}
	out, err := policy.NewSampler(w).Sample([][]int{{1, 7, 2}}, policy.SampleConfig{MaxNewTokens: 8, Greedy: true, EOS: eos}, nil)
	if err != nil {
		panic(err)
	}
	fmt.Println(out[0].Tokens, out[0].Stopped)
	// Output: [9 4 4 15] true
}
