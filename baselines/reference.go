package baselines

import (
	"context"
	"fmt"
	"math"
	"path/filepath"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/eval"
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
// files: results.jsonl, metadata.json, report.html).
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

func reference(ctx context.Context, e Entry, out string, reg *envs.Registry, oracles *eval.Oracles) (Reference, error) {
	cfg := eval.DefaultConfig()
	cfg.Envs = []string{e.Cfg.Env.ID}
	cfg.EnvOptions = e.Cfg.EvalEnv().Options // random play on the held-out evaluation's env
	cfg.Episodes = e.Cfg.Eval.Episodes
	cfg.SeedBase = e.Cfg.Eval.SeedBase
	cfg.Concurrency = 8
	pols := []eval.Named{{Name: "random", Policy: eval.Random{}, Note: "the env's random valid actions"}}
	hasSolver, err := eval.HasSolver(reg, e.Cfg.Env.ID, cfg.EnvOptions)
	if err != nil {
		return Reference{}, err
	}
	if hasSolver {
		pols = append(pols, eval.Named{Name: "oracle", Policy: oracles, Note: "the env's solver"})
	}
	for _, p := range pols {
		cfg.Policies = append(cfg.Policies, p.Name)
	}
	md, err := eval.Run(ctx, cfg, pols, eval.Options{Dir: ReferenceDir(out, e.Name), Registry: reg})
	if err != nil {
		return Reference{}, err
	}
	if !md.Complete {
		return Reference{}, fmt.Errorf("some episodes ended with an error: see %s", filepath.Join(ReferenceDir(out, e.Name), eval.ResultsFile))
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
