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
// the pairs are a fixed pool drawn from with rng; with
// warmup.after_tool_weight = w > 1 a pair whose observation is a tool's
// result is in the pool w times. That moves the warm-up's effort to the
// turns after a call (copying from the result) without changing what it
// imitates there: for each observation the actions are SampleAction's.
// ctx's end stops it between episodes and between steps.
//
// start > 0 resumes a warm-up after that many steps: the pool is drawn again
// with rng as it was before the first step (so it is the same pool), then
// afterPool sets rng to its state after step start.
func warmup(ctx context.Context, tr *policy.Trainer, tok *policy.Tokenizer, newEnv func() (envs.Env, error), wc WarmupConfig, promptTokens int, seed uint64, rng *rand.Rand, start int, afterPool func() error, log func(step int, st policy.Stats)) error {
	pool, err := warmupPool(ctx, newEnv, wc, seed, rng)
	if err != nil {
		return err
	}
	if afterPool != nil {
		if err := afterPool(); err != nil {
			return err
		}
	}
	pairs := func(r *rand.Rand) (string, string) {
		p := pool[r.IntN(len(pool))]
		return p.obs, p.action
	}
	if !wc.Transcript {
		_, err = policy.Warmup(ctx, tr, tok, pairs, policy.WarmupConfig{Steps: wc.Steps, BatchSize: wc.BatchSize, PromptTokens: promptTokens, Start: start, Log: log}, rng)
		return err
	}
	// Transcript mode: the whole (observation, action) text is the target,
	// so the model also learns to read the observations.
	batch := make([]policy.Sequence, wc.BatchSize)
	for step := start + 1; step <= wc.Steps; step++ {
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

// defaultWarmupPool bounds the pool when warmup.pool is 0.
const defaultWarmupPool = 20000

// warmupPool plays random episodes until it holds wc.Pool (0: min(steps ×
// batch, 20,000)) distinct (observation, action) pairs, each pair after a tool's
// result wc.AfterToolWeight times; with wc.OffState > 0 a share of the
// turns play another state's action and with wc.Repeat > 0 a share play
// the episode's previous action again (randomPlayOff), and the pool holds
// the observations after them.
func warmupPool(ctx context.Context, newEnv func() (envs.Env, error), wc WarmupConfig, seed uint64, rng *rand.Rand) ([]pair, error) {
	var pool []pair
	need, distinct := wc.Pool, 0
	if need == 0 {
		need = min(wc.Steps*wc.BatchSize, defaultWarmupPool)
	}
	err := randomPlayOff(ctx, newEnv, seed, wc.OffState, wc.Repeat, rng, func(p pair) bool {
		if p.action != "" {
			pool = append(pool, p)
			distinct++
			for i := 1; p.afterTool && i < wc.AfterToolWeight; i++ {
				pool = append(pool, p)
			}
		}
		return distinct < need
	})
	if err != nil {
		if len(wc.Options) > 0 {
			return nil, fmt.Errorf("warm-up data (its env takes warmup.options over env.options): %w", err)
		}
		return nil, fmt.Errorf("warm-up data: %w", err)
	}
	return pool, nil
}
