package train

import (
	"fmt"
	"math/rand/v2"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/policy"
	"github.com/gemgo/gemgo/rollout"
)

// warmup trains the policy to write SampleAction-style actions for the
// observations of random play: the action format, before RL.
func warmup(tr *policy.Trainer, agent *rollout.Agent, newEnv func() (envs.Env, error), wc WarmupConfig, seed uint64, rng *rand.Rand, log func(step int, st policy.Stats)) error {
	var pool []pair
	need := wc.Steps * wc.BatchSize
	if need > 20000 {
		need = 20000
	}
	err := randomPlay(newEnv, seed, rng, func(p pair) bool {
		if p.action != "" {
			pool = append(pool, p)
		}
		return len(pool) < need
	})
	if err != nil {
		return fmt.Errorf("warm-up data: %w", err)
	}
	batch := make([]policy.Sequence, wc.BatchSize)
	for step := 0; step < wc.Steps; step++ {
		for i := range batch {
			p := pool[rng.IntN(len(pool))]
			batch[i] = policy.Sequence{Prompt: agent.Prompt(p.obs), Response: agent.Tok.EncodeResponse(p.action)}
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
