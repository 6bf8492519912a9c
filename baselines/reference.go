package baselines

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"path/filepath"
	"strings"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/eval"
	"github.com/gemgo/gemgo/train"
)

// Reference is what an env gives without training, on the held-out seeds
// its runs are evaluated on: the env's random player (SampleAction) with
// GEM's draw, the informed random player the config chose with
// envs.SampleOption where it chose one (in env.options, or in
// warmup.options for the warm-up's teacher), and the env's solver where one is
// registered.
type Reference struct {
	Random     float64 // success rate of random play (GEM's draw)
	Sampler    float64 // success rate of the config's informed random player; NaN without one
	HasSampler bool
	Solver     float64 // NaN when the env has no solver
	HasSolver  bool
	Episodes   int // eval.episodes: the held-out seeds of one env
	Plays      int // episodes behind Random: Episodes times the envs evaluated
}

// ReferenceDir is where an entry's reference evaluation is kept (eval's
// files: results.jsonl, metadata.json, report.html; for a config that
// evaluates several envs, one such directory per env under it, named by
// the env with ':' as '_').
func ReferenceDir(out, name string) string { return filepath.Join(out, name, "reference") }

// References plays the random player and the solver on every entry's
// held-out seeds (the training config's eval.seed_base and eval.episodes,
// the same env options), one eval directory per entry, so that a rerun
// plays only what is missing.
func References(ctx context.Context, entries []Entry, out string, reg *envs.Registry, oracles *eval.Oracles) (map[string]Reference, error) {
	refs := map[string]Reference{}
	for _, e := range entries {
		r, err := reference(ctx, e, out, reg, oracles)
		if errors.Is(err, eval.ErrOtherSettings) {
			return refs, fmt.Errorf("reference play of %s: %s holds random play of other settings than the config's now (its env options or eval seeds changed since it was played): delete that directory to play it again (%w)", e.Name, ReferenceDir(out, e.Name), err)
		}
		if err != nil {
			return refs, fmt.Errorf("reference play of %s: %w", e.Name, err)
		}
		refs[e.Name] = r
	}
	return refs, nil
}

// reference plays an entry's held-out evaluation: its one env in
// ReferenceDir, or, for a config that evaluates several (a mixture,
// eval.envs), each in a directory of its own under it, the figures being
// the mean over the envs as the training's evaluation takes them (the
// solver's only when every env has one; the informed sampler's when one env
// has one, the others counted at GEM's draw).
func reference(ctx context.Context, e Entry, out string, reg *envs.Registry, oracles *eval.Oracles) (Reference, error) {
	targets := e.Cfg.EvalEnvs()
	if len(targets) == 0 {
		return referenceOne(ctx, e.Cfg, e.Cfg.EvalEnv(), ReferenceDir(out, e.Name), reg, oracles)
	}
	sum := Reference{HasSolver: true}
	for _, t := range targets {
		r, err := referenceOne(ctx, e.Cfg, t.Env, filepath.Join(ReferenceDir(out, e.Name), dirName(t.Name)), reg, oracles)
		if err != nil {
			return Reference{}, fmt.Errorf("%s: %w", t.Name, err)
		}
		n := float64(len(targets))
		sum.Random += r.Random / n
		sum.Solver += r.Solver / n
		sum.HasSolver = sum.HasSolver && r.HasSolver
		sum.Sampler += r.sampled() / n
		sum.HasSampler = sum.HasSampler || r.HasSampler
		sum.Episodes = r.Episodes
		sum.Plays += r.Plays
	}
	if !sum.HasSolver {
		sum.Solver = math.NaN()
	}
	if !sum.HasSampler {
		sum.Sampler = math.NaN()
	}
	return sum, nil
}

// dirName is an env name as a directory name (':' becomes '_').
func dirName(name string) string { return strings.ReplaceAll(name, ":", "_") }

// sampled is the success of the env's random play as its config's sampler
// plays it: the informed player's where there is one, else GEM's draw (a
// mixture averages the two kinds over its envs).
func (r Reference) sampled() float64 {
	if r.HasSampler {
		return r.Sampler
	}
	return r.Random
}

// referenceOne plays the random player (GEM's draw: env's options without
// envs.SampleOption) and the solver on env (the run's held-out seeds) into
// dir, and, when the options choose an informed random player (or, without
// one, warmup.options choose the teacher the warm-up imitates), that player
// into dir/sampler.
func referenceOne(ctx context.Context, tc train.Config, env train.EnvConfig, dir string, reg *envs.Registry, oracles *eval.Oracles) (Reference, error) {
	gem := maps.Clone(env.Options)
	delete(gem, envs.SampleOption)
	hasSolver, err := eval.HasSolver(reg, env.ID, gem)
	if err != nil {
		return Reference{}, err
	}
	pols := []eval.Named{{Name: "random", Policy: eval.Random{}, Note: "the env's random valid actions (GEM's draw)"}}
	if hasSolver {
		pols = append(pols, eval.Named{Name: "oracle", Policy: oracles, Note: "the env's solver"})
	}
	agg, err := playReference(ctx, tc, env.ID, gem, pols, dir, reg)
	if err != nil {
		return Reference{}, err
	}
	r := Reference{Random: agg["random"], Solver: math.NaN(), Sampler: math.NaN(), HasSolver: hasSolver, Episodes: tc.Eval.Episodes, Plays: tc.Eval.Episodes}
	if hasSolver {
		r.Solver = agg["oracle"]
	}
	opts, note := env.Options, ""
	if v, ok := env.Options[envs.SampleOption]; ok {
		note = fmt.Sprintf("the env's random player with %s: %v", envs.SampleOption, v)
	} else if v, ok := tc.Warmup.Options[envs.SampleOption]; ok && env.ID == tc.Env.ID {
		// the teacher the warm-up imitates (warmup.options), on the env
		// it plays
		opts = maps.Clone(env.Options)
		if opts == nil {
			opts = map[string]any{}
		}
		opts[envs.SampleOption] = v
		note = fmt.Sprintf("the warm-up's player (warmup.options %s: %v)", envs.SampleOption, v)
	}
	if note != "" {
		agg, err := playReference(ctx, tc, env.ID, opts, []eval.Named{{Name: "random", Policy: eval.Random{}, Note: note}}, filepath.Join(dir, "sampler"), reg)
		if err != nil {
			return Reference{}, err
		}
		r.Sampler, r.HasSampler = agg["random"], true
	}
	return r, nil
}

// playReference plays pols on env id with opts on the held-out seeds of tc
// into dir and returns each policy's success rate.
func playReference(ctx context.Context, tc train.Config, id string, opts map[string]any, pols []eval.Named, dir string, reg *envs.Registry) (map[string]float64, error) {
	cfg := eval.DefaultConfig()
	cfg.Envs = []string{id}
	cfg.EnvOptions = opts
	cfg.Episodes = tc.Eval.Episodes
	cfg.SeedBase = tc.Eval.SeedBase
	cfg.Concurrency = 8
	for _, p := range pols {
		cfg.Policies = append(cfg.Policies, p.Name)
	}
	md, err := eval.Run(ctx, cfg, pols, eval.Options{Dir: dir, Registry: reg})
	if err != nil {
		return nil, err
	}
	if !md.Complete {
		return nil, fmt.Errorf("some episodes ended with an error: see %s", filepath.Join(dir, eval.ResultsFile))
	}
	out := map[string]float64{}
	for _, a := range md.Aggregates {
		out[a.Policy] = a.Success.Mean
	}
	return out, nil
}
