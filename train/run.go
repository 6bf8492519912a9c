package train

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/gemgo/gemgo/algo"
	"github.com/gemgo/gemgo/buffer"
	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/policy"
	"github.com/gemgo/gemgo/rollout"
)

// Result is what a finished run reports.
type Result struct {
	Iterations  int
	EnvSteps    int
	Episodes    int
	Wall        time.Duration
	FinalEval   EvalResult
	BestSuccess float64
}

// EvalResult is one greedy evaluation on the held-out seeds.
type EvalResult struct {
	Iteration   int
	Episodes    int
	SuccessRate float64
	MeanReturn  float64
	MeanTurns   float64 // over all episodes
	SolvedTurns float64 // mean turns of the solved episodes
}

// Logger receives the run's progress. Every method may be nil-safe no-ops.
type Logger interface {
	Warmup(step int, st policy.Stats)
	Iteration(it int, m algo.Metrics)
	Eval(e EvalResult)
}

// Run trains as cfg says, reporting to log.
func Run(ctx context.Context, cfg Config, reg *envs.Registry, log Logger) (Result, error) {
	var res Result
	if err := cfg.Validate(); err != nil {
		return res, err
	}
	start := time.Now()
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x6a09e667f3bcc908))
	newEnv := envFactory(reg, cfg.Env)
	if _, err := newEnv(); err != nil {
		return res, err
	}

	// 1. tokenizer and policy
	tok, err := buildTokenizer(newEnv, cfg.Tokenizer, cfg.Seed<<20, rng)
	if err != nil {
		return res, err
	}
	pc := cfg.policyConfig(tok.VocabSize()).Config
	w, err := policy.NewWeights(pc, rng)
	if err != nil {
		return res, err
	}
	agent := &rollout.Agent{Tok: tok, Sampler: policy.NewSampler(w), Context: pc.Context,
		Sample: policy.SampleConfig{MaxNewTokens: cfg.Sample.MaxNewTokens, Temperature: cfg.Sample.Temperature, TopP: cfg.Sample.TopP, EOS: tok.EOS()}}

	// 2. format warm-up
	if cfg.Warmup.Steps > 0 {
		wt, err := policy.NewTrainer(w, policy.OptimConfig{LR: cfg.Warmup.LR, MaxGradNorm: 1, WarmupSteps: cfg.Warmup.Steps / 10, TotalSteps: cfg.Warmup.Steps, MinLRFrac: 0.1})
		if err != nil {
			return res, err
		}
		if err := warmup(wt, tok, newEnv, cfg.Warmup, pc.Context-cfg.Sample.MaxNewTokens, cfg.Seed<<24, rng, log.Warmup); err != nil {
			return res, err
		}
	}

	// 3. RL
	tr, err := policy.NewTrainer(w, cfg.optimConfig(cfg.Optim.LR, cfg.optimizerSteps()))
	if err != nil {
		return res, err
	}
	var ref algo.Reference
	if cfg.Loss.KLCoef > 0 {
		if ref, err = policy.NewTrainer(w.Clone(), policy.OptimConfig{}); err != nil {
			return res, err
		}
	}
	var critic *policy.Critic
	if cfg.Algo.Name == "ppo" {
		cw, err := policy.NewCriticWeights(pc, rng)
		if err != nil {
			return res, err
		}
		lr := cfg.Algo.CriticLR
		if lr == 0 {
			lr = cfg.Optim.LR
		}
		if critic, err = policy.NewCritic(cw, cfg.optimConfig(lr, cfg.optimizerSteps())); err != nil {
			return res, err
		}
		agent.Critic = critic
	}
	alg := cfg.algorithm(ref, critic)
	col, err := rollout.NewCollector(cfg.Env.NumEnvs, newEnv, agent)
	if err != nil {
		return res, err
	}
	defer col.Close()
	evalSeeds := make([]uint64, cfg.Eval.Episodes)
	for i := range evalSeeds {
		evalSeeds[i] = cfg.Eval.SeedBase + uint64(i)
	}
	evaluate := func(it int) (EvalResult, error) {
		greedy := *agent
		greedy.Sample.Greedy = true
		greedy.Critic = nil
		ec, err := rollout.NewCollector(min(cfg.Env.NumEnvs, max(len(evalSeeds), 1)), newEnv, &greedy)
		if err != nil {
			return EvalResult{}, err
		}
		defer ec.Close()
		var b buffer.Buffer
		if _, err := ec.Collect(ctx, rollout.Plan{Budget: rollout.Budget{Episodes: len(evalSeeds)}, Seed: rollout.ListSeeds(evalSeeds)}, &b, rand.New(rand.NewPCG(1, 1))); err != nil {
			return EvalResult{}, err
		}
		s := b.Stats()
		e := EvalResult{Iteration: it, Episodes: s.Episodes, SuccessRate: s.SuccessRate, MeanReturn: s.MeanReturn, MeanTurns: s.MeanTurns}
		solved := 0
		for _, ep := range b.Episodes {
			if ep.Success {
				solved++
				e.SolvedTurns += float64(ep.Turns)
			}
		}
		if solved > 0 {
			e.SolvedTurns /= float64(solved)
		}
		return e, nil
	}
	if cfg.Eval.Episodes > 0 {
		e, err := evaluate(0)
		if err != nil {
			return res, err
		}
		log.Eval(e)
	}
	var buf buffer.Buffer
	for it := 1; it <= cfg.Iterations; it++ {
		buf.Clear()
		plan := rollout.Plan{Budget: rollout.Budget{Episodes: cfg.Rollout.Episodes, Steps: cfg.Rollout.Steps}, GroupSize: cfg.Rollout.GroupSize, Seed: rollout.SeedSequence(cfg.Seed, it)}
		cs, err := col.Collect(ctx, plan, &buf, rng)
		if err != nil {
			return res, err
		}
		t0 := time.Now()
		m, err := alg.Update(&buf, tr, rng)
		if err != nil {
			return res, fmt.Errorf("iteration %d: %w", it, err)
		}
		res.EnvSteps += cs.Steps
		res.Episodes += cs.Episodes
		res.Iterations = it
		m["perf/env_steps_per_s"] = cs.StepsPerSecond()
		m["perf/sampled_tokens_per_s"] = cs.TokensPerSecond()
		m["perf/rollout_s"] = cs.Wall.Seconds()
		m["perf/update_s"] = time.Since(t0).Seconds()
		m["global/env_steps"] = float64(res.EnvSteps)
		m["global/wall_s"] = time.Since(start).Seconds()
		log.Iteration(it, m)
		if cfg.Eval.Episodes > 0 && ((cfg.Eval.Every > 0 && it%cfg.Eval.Every == 0) || it == cfg.Iterations) {
			e, err := evaluate(it)
			if err != nil {
				return res, err
			}
			res.FinalEval = e
			res.BestSuccess = max(res.BestSuccess, e.SuccessRate)
			log.Eval(e)
		}
	}
	res.Wall = time.Since(start)
	return res, nil
}
