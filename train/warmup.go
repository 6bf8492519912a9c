package train

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/policy"
)

// warmup trains the policy to write SampleAction-style actions for the
// observations of random play (policy.Warmup): the action format, before
// RL. The observations come from random episodes played once up front, so
// the pairs are a fixed pool drawn from with rng. ctx's end stops it
// between episodes and between steps.
func warmup(ctx context.Context, tr *policy.Trainer, tok *policy.Tokenizer, newEnv func() (envs.Env, error), wc WarmupConfig, promptTokens int, seed uint64, rng *rand.Rand, log func(step int, st policy.Stats)) error {
	var pool []pair
	need := min(wc.Steps*wc.BatchSize, 20000)
	err := randomPlay(ctx, newEnv, seed, rng, func(p pair) bool {
		if p.action != "" {
			pool = append(pool, p)
		}
		return len(pool) < need
	})
	if err != nil {
		return fmt.Errorf("warm-up data: %w", err)
	}
	pairs := func(r *rand.Rand) (string, string) {
		p := pool[r.IntN(len(pool))]
		return p.obs, p.action
	}
	if !wc.Transcript {
		_, err = policy.Warmup(ctx, tr, tok, pairs, policy.WarmupConfig{Steps: wc.Steps, BatchSize: wc.BatchSize, PromptTokens: promptTokens, Log: log}, rng)
		return err
	}
	// Transcript mode: the whole (observation, action) text is the target,
	// so the model also learns to read the observations.
	batch := make([]policy.Sequence, wc.BatchSize)
	for step := 1; step <= wc.Steps; step++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		for i := range batch {
			obs, action := pairs(rng)
			prompt := policy.CutPrompt(tok.EncodePrompt(obs), promptTokens)
			resp := append(append([]int(nil), prompt[1:]...), tok.EncodeResponse(action)...)
			batch[i] = policy.Sequence{Prompt: prompt[:1], Response: resp}
		}
		st, err := tr.SupervisedStep(batch)
		if err != nil {
			return fmt.Errorf("warm-up step %d: %w", step, err)
		}
		if log != nil {
			log(step, st)
		}
	}
	return nil
}
