package baselines

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/eval"
	"github.com/gemgo/gemgo/train"
)

// Reference is what an env gives without training, on the held-out seeds
// its runs are evaluated on: the env's random player (SampleAction) and its
// solver, where one is registered.
type Reference struct {
	Random    float64 // success rate of random play
	Solver    float64 // NaN when the env has no solver
	HasSolver bool
	Episodes  int
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
// solver's only when every env has one).
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
		sum.Episodes = r.Episodes
	}
	if !sum.HasSolver {
		sum.Solver = math.NaN()
	}
	return sum, nil
}

// dirName is an env name as a directory name (':' becomes '_').
func dirName(name string) string { return strings.ReplaceAll(name, ":", "_") }

// referenceOne plays the random player and the solver on env (the run's
// held-out seeds) into dir.
func referenceOne(ctx context.Context, tc train.Config, env train.EnvConfig, dir string, reg *envs.Registry, oracles *eval.Oracles) (Reference, error) {
	cfg := eval.DefaultConfig()
	cfg.Envs = []string{env.ID}
	cfg.EnvOptions = env.Options // random play on the held-out evaluation's env
	cfg.Episodes = tc.Eval.Episodes
	cfg.SeedBase = tc.Eval.SeedBase
	cfg.Concurrency = 8
	pols := []eval.Named{{Name: "random", Policy: eval.Random{}, Note: "the env's random valid actions"}}
	hasSolver, err := eval.HasSolver(reg, env.ID, cfg.EnvOptions)
	if err != nil {
		return Reference{}, err
	}
	if hasSolver {
		pols = append(pols, eval.Named{Name: "oracle", Policy: oracles, Note: "the env's solver"})
	}
	for _, p := range pols {
		cfg.Policies = append(cfg.Policies, p.Name)
	}
	md, err := eval.Run(ctx, cfg, pols, eval.Options{Dir: dir, Registry: reg})
	if err != nil {
		return Reference{}, err
	}
	if !md.Complete {
		return Reference{}, fmt.Errorf("some episodes ended with an error: see %s", filepath.Join(dir, eval.ResultsFile))
	}
	r := Reference{Solver: math.NaN(), HasSolver: hasSolver, Episodes: cfg.Episodes}
	for _, a := range md.Aggregates {
		switch a.Policy {
		case "random":
			r.Random = a.Success.Mean
		case "oracle":
			r.Solver = a.Success.Mean
		}
	}
	return r, nil
}
