package train

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/gemgo/gemgo/algo"
	"github.com/gemgo/gemgo/buffer"
	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/rollout"
)

// EvalResult is one evaluation on the held-out seeds: the greedy play's
// figures, and the success and return of the same seeds played sampled at
// the training's sample.temperature and top_p.
type EvalResult struct {
	Iteration   int
	Episodes    int
	SuccessRate float64 // greedy
	MeanReturn  float64 // greedy
	MeanTurns   float64 // greedy, over all episodes
	SolvedTurns float64 // greedy: mean turns of the solved episodes
	ToolCalls   float64 // greedy: mean tool calls per episode (0 without tools)

	SampledSuccessRate float64
	SampledReturn      float64

	// PerEnv is each env's figures when the evaluation plays several
	// (eval.envs, or a mixture's entries); the fields above are then
	// their means. Nil for one env.
	PerEnv []EnvEval
}

// EnvEval is one env's figures in an evaluation of several.
type EnvEval struct {
	Name                              string
	SuccessRate, MeanReturn           float64 // greedy
	SampledSuccessRate, SampledReturn float64
}

// evaluate plays the held-out seeds twice on each env of the evaluation:
// greedily (the arg max of every token) and sampled as the rollouts
// sample (sample.temperature and top_p), so that a policy whose arg max
// loops while its samples solve, or the reverse, shows as such. Each play
// has an RNG of its own, so the evaluation draws nothing from the
// training's random source. With several envs (eval.envs, or a
// mixture's entries) each plays the same seeds; the result is the mean
// over the envs, each env's own in PerEnv.
func (r *runner) evaluate(ctx context.Context, it int) (EvalResult, error) {
	if len(r.targets) == 0 {
		e, err := r.evaluateEnv(ctx, it, r.newEvalEnv, r.cfg.Env.ID)
		if err != nil {
			return EvalResult{}, err
		}
		r.last = e
		return e, nil
	}
	e := EvalResult{Iteration: it}
	n := float64(len(r.targets))
	for _, t := range r.targets {
		one, err := r.evaluateEnv(ctx, it, t.newEnv, t.env.ID)
		if err != nil {
			return EvalResult{}, fmt.Errorf("%s: %w", t.name, err)
		}
		e.Episodes = one.Episodes
		e.SuccessRate += one.SuccessRate / n
		e.MeanReturn += one.MeanReturn / n
		e.MeanTurns += one.MeanTurns / n
		e.SolvedTurns += one.SolvedTurns / n
		e.ToolCalls += one.ToolCalls / n
		e.SampledSuccessRate += one.SampledSuccessRate / n
		e.SampledReturn += one.SampledReturn / n
		e.PerEnv = append(e.PerEnv, EnvEval{Name: t.name, SuccessRate: one.SuccessRate, MeanReturn: one.MeanReturn,
			SampledSuccessRate: one.SampledSuccessRate, SampledReturn: one.SampledReturn})
	}
	r.last = e
	return e, nil
}

// evaluateEnv is evaluate on the env newEnv makes (id names it in errors).
func (r *runner) evaluateEnv(ctx context.Context, it int, newEnv func() (envs.Env, error), id string) (EvalResult, error) {
	greedy := *r.agent
	greedy.Sample.Greedy = true
	greedy.Sample.Temperature = 1 // the arg max is the same at any; its log-probs go unused
	greedy.Critic = nil
	g, err := r.evalPlay(ctx, &greedy, 1, newEnv, id)
	if err != nil {
		return EvalResult{}, err
	}
	sampled := *r.agent
	sampled.Critic = nil
	s, err := r.evalPlay(ctx, &sampled, 2, newEnv, id)
	if err != nil {
		return EvalResult{}, err
	}
	e := EvalResult{Iteration: it, Episodes: g.Stats().Episodes}
	e.SuccessRate, e.MeanReturn, e.MeanTurns, e.SolvedTurns, e.ToolCalls = summarize(&g)
	e.SampledSuccessRate, e.SampledReturn, _, _, _ = summarize(&s)
	return e, nil
}

// evalPlay plays the held-out seeds with agent on the envs newEnv makes,
// its sampling drawn from an RNG seeded with stream.
func (r *runner) evalPlay(ctx context.Context, agent *rollout.Agent, stream uint64, newEnv func() (envs.Env, error), id string) (buffer.Buffer, error) {
	seeds := make([]uint64, r.cfg.Eval.Episodes)
	for i := range seeds {
		seeds[i] = r.cfg.Eval.SeedBase + uint64(i)
	}
	var b buffer.Buffer
	ec, err := rollout.NewCollector(min(r.cfg.Env.NumEnvs, len(seeds)), newEnv, agent)
	if err != nil {
		return b, err
	}
	ec.EnvID = id
	defer ec.Close()
	plan := rollout.Plan{Budget: rollout.Budget{Episodes: len(seeds)}, Seed: rollout.ListSeeds(seeds)}
	if _, err := ec.Collect(ctx, plan, &b, rand.New(rand.NewPCG(stream, stream))); err != nil {
		return b, fmt.Errorf("evaluation: %w", err)
	}
	return b, nil
}

// summarize is an evaluation's success rate, mean return, mean turns (all
// episodes and solved ones) and mean tool calls.
func summarize(b *buffer.Buffer) (success, ret, turns, solvedTurns, toolCalls float64) {
	s := b.Stats()
	solved := 0
	for _, ep := range b.Episodes {
		if ep.Success {
			solved++
			solvedTurns += float64(ep.Turns)
		}
	}
	if solved > 0 {
		solvedTurns /= float64(solved)
	}
	return s.SuccessRate, s.MeanReturn, s.MeanTurns, solvedTurns, s.MeanToolCalls
}

// record adds the evaluation to an iteration's metrics.
func (e EvalResult) record(m algo.Metrics) {
	for k, v := range e.Metrics() {
		m[k] = v
	}
}

// Metrics is the evaluation under the metric names of metrics.jsonl
// ("eval/success_rate", "eval/episodic_return", "eval/turns",
// "eval/solved_turns", "eval/tool_calls", and the sampled play's
// "eval/sampled_success_rate" and "eval/sampled_episodic_return"), and
// with several envs each env's as "eval/success_rate/NAME",
// "eval/episodic_return/NAME", "eval/sampled_success_rate/NAME" and
// "eval/sampled_episodic_return/NAME".
func (e EvalResult) Metrics() map[string]float64 {
	m := map[string]float64{
		"eval/success_rate":            e.SuccessRate,
		"eval/episodic_return":         e.MeanReturn,
		"eval/turns":                   e.MeanTurns,
		"eval/solved_turns":            e.SolvedTurns,
		"eval/tool_calls":              e.ToolCalls,
		"eval/sampled_success_rate":    e.SampledSuccessRate,
		"eval/sampled_episodic_return": e.SampledReturn,
	}
	for _, p := range e.PerEnv {
		m["eval/success_rate/"+p.Name] = p.SuccessRate
		m["eval/episodic_return/"+p.Name] = p.MeanReturn
		m["eval/sampled_success_rate/"+p.Name] = p.SampledSuccessRate
		m["eval/sampled_episodic_return/"+p.Name] = p.SampledReturn
	}
	return m
}
