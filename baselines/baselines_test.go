package baselines

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/compare"
	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/builtin"
	"github.com/gemgo/gemgo/eval"
	"github.com/gemgo/gemgo/sandbox"
	"github.com/gemgo/gemgo/stats"
	"github.com/gemgo/gemgo/train"
)

const tiny = `
iterations: 2
model: {layers: 1, d_model: 16, heads: 2, context: 64}
tokenizer: {corpus_episodes: 20}
warmup: {steps: 3, batch_size: 8, lr: 0.003}
env: {num_envs: 8, options: {style: brief}}
rollout: {episodes: 8}
algo: {minibatch_size: 16}
eval: {every: 1, episodes: 12}
`

// writeSuite writes a suite with a shared base and the given configs
// (name → YAML added to "base: base.yaml").
func writeSuite(t *testing.T, suite string, configs map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "base.yaml"), []byte(tiny), 0o644))
	for name, body := range configs {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name+".yaml"), []byte("base: base.yaml\n"+body), 0o644))
	}
	p := filepath.Join(dir, "suite.yaml")
	require.NoError(t, os.WriteFile(p, []byte(suite), 0o644))
	return p
}

func TestParseIsStrict(t *testing.T) {
	for _, c := range []struct{ yaml, want string }{
		{"", "empty suite file"},
		{"configs: [a]\nseeds: [1, 2, 3]\nepisodes: 4\n", "valid keys: name, configs, seeds, notes"},
		{"configs: [a]\nseeds: [1, 2]\n", "seeds has 2 values: a baseline needs at least 3"},
		{"configs: [a]\nseeds: [1, 2, 2]\n", "seed 2 is listed twice"},
		{"seeds: [1, 2, 3]\n", "configs is empty"},
		{"name: a/b\nconfigs: [a]\nseeds: [1, 2, 3]\n", `name = "a/b"`},
	} {
		_, err := Parse([]byte(c.yaml))
		require.Error(t, err, c.yaml)
		assert.Contains(t, err.Error(), c.want)
	}
	s, err := Parse([]byte("name: b\nconfigs: [x, y.yaml]\nseeds: [3, 1, 2]\n"))
	require.NoError(t, err)
	assert.Equal(t, []uint64{3, 1, 2}, s.Seeds)
}

func TestLoadResolvesConfigsBesideTheSuite(t *testing.T) {
	p := writeSuite(t, "name: s\nconfigs: [guess, bits.yaml]\nseeds: [1, 2, 3]\n", map[string]string{
		"guess": "env: {id: \"game:GuessTheNumber-v0-easy\", options: {style: brief, partial_credit: false}}\n",
		"bits":  "env: {id: \"rg:count_bits\", options: {style: brief, bits: 4}}\n",
	})
	s, entries, err := Load(p)
	require.NoError(t, err)
	require.Len(t, entries, 2)
	assert.Equal(t, "guess", entries[0].Name)
	assert.Equal(t, "game:GuessTheNumber-v0-easy", entries[0].Cfg.Env.ID)
	assert.Equal(t, "bits", entries[1].Name)
	assert.Equal(t, 4, entries[1].Cfg.Env.Options["bits"])
	assert.Equal(t, 2, entries[1].Cfg.Iterations, "the base's budget")
	runs, err := s.Plan(entries, "OUT")
	require.NoError(t, err)
	require.Len(t, runs, 6)
	assert.Equal(t, filepath.Join("OUT", "bits", "seed3"), runs[5].Dir)
	assert.Equal(t, uint64(3), runs[5].Cfg.Seed)
	assert.Equal(t, "bits-seed3", runs[5].Cfg.Name)

	// A missing config, a tool-wrapped one and a duplicate are named.
	p = writeSuite(t, "configs: [nope, tooled, ok, ok]\nseeds: [1, 2, 3]\n", map[string]string{
		"tooled": "env: {id: \"math:Products-v0\", tools: [{name: python}]}\n",
		"ok":     "env: {id: \"rg:count_bits\"}\n",
	})
	_, _, err = Load(p)
	require.Error(t, err)
	for _, want := range []string{"config nope:", "config tooled: env.tools is set", `config "ok" is listed twice`} {
		assert.Contains(t, err.Error(), want)
	}
	_, _, err = Load(filepath.Join(t.TempDir(), "none.yaml"))
	assert.ErrorContains(t, err, "no such file")
}

func TestTableCells(t *testing.T) {
	rows := []Row{
		{Name: "g", Env: "game:G", HasRef: true, Ref: Reference{Random: 0.38, Sampler: 0.72, HasSampler: true, Solver: 1, HasSolver: true, Episodes: 200, Plays: 200}, Seeds: 3,
			Sum: compare.ArmSummary{Complete: 3, Final: stats.Stat{N: 3, Mean: 0.9, Lo: 0.85, Hi: 0.95},
				Steps: stats.Stat{N: 3, Mean: 12345.4}, Wall: stats.Stat{N: 3, Mean: 61.6}}},
		{Name: "r", Env: "rg:r", HasRef: true, Ref: Reference{Random: 0.5, Sampler: math.NaN(), Solver: math.NaN()}, Seeds: 3,
			Sum: compare.ArmSummary{Complete: 1, Final: stats.Stat{N: 1, Mean: 0.25, Lo: 0.25, Hi: 0.25}}},
		{Name: "x", Env: "rg:x", Seeds: 3},
	}
	tab := Table(rows)
	require.Len(t, tab, 4)
	assert.Equal(t, []string{"g", "game:G", "0.380 [0.316, 0.449]", "0.720", "1.000", "0.900 [0.850, 0.950]", "+0.520", "above", "3/3", "12345", "62"}, tab[1])
	assert.Equal(t, []string{"r", "rg:r", "0.500", "–", "none", "0.250 [0.250, 0.250]", "-0.250", "–", "1/3", "–", "–"}, tab[2],
		"no interval without the episodes played, no verdict before every seed finished")
	assert.Equal(t, []string{"x", "rg:x", "–", "–", "–", "–", "–", "–", "0/3", "–", "–"}, tab[3])
	md := compare.Markdown(tab)
	assert.True(t, strings.HasPrefix(md, "| config | env | random [95% CI] |"))
	assert.Contains(t, md, "\n|---|---|---|---|---|---|---|---|---|---|---|\n| g |")
	assert.Equal(t, "Of the 1 configs with every seed finished (of 3): 1 above random play's interval, 0 at it (the intervals overlap), 0 below.", Tally(rows))
}

func TestReferencesPlayTheHeldOutSeedsOnce(t *testing.T) {
	p := writeSuite(t, "configs: [guess, bits]\nseeds: [1, 2, 3]\n", map[string]string{
		"guess": "env: {id: \"game:GuessTheNumber-v0-easy\", options: {style: brief, partial_credit: false}}\n",
		"bits":  "env: {id: \"rg:count_bits\", options: {style: brief, bits: 4}}\n",
	})
	_, entries, err := Load(p)
	require.NoError(t, err)
	out := t.TempDir()
	refs, err := References(context.Background(), entries, out, builtin.Registry(), eval.DefaultOracles())
	require.NoError(t, err)
	g, b := refs["guess"], refs["bits"]
	assert.True(t, g.HasSolver)
	assert.Equal(t, 1.0, g.Solver, "bisection wins every game of 1-10 in 4 turns")
	assert.Equal(t, 12, g.Episodes, "eval.episodes of the config")
	assert.True(t, g.Random > 0 && g.Random < 1, "random guessing wins some games, not all: %v", g.Random)
	assert.False(t, b.HasSolver)
	assert.True(t, math.IsNaN(b.Solver))
	// The seeds are the config's held-out ones: those of eval.seed_base.
	recs, err := eval.ReadResults(filepath.Join(ReferenceDir(out, "guess"), eval.ResultsFile))
	require.NoError(t, err)
	require.Len(t, recs, 24, "12 seeds × (random, oracle)")
	for _, r := range recs {
		assert.True(t, r.Seed >= entries[0].Cfg.Eval.SeedBase && r.Seed < entries[0].Cfg.Eval.SeedBase+12)
	}
	// A second call plays nothing and gives the same numbers.
	again, err := References(context.Background(), entries, out, builtin.Registry(), eval.DefaultOracles())
	require.NoError(t, err)
	assert.Equal(t, g.Random, again["guess"].Random)
	recs, err = eval.ReadResults(filepath.Join(ReferenceDir(out, "guess"), eval.ResultsFile))
	require.NoError(t, err)
	assert.Len(t, recs, 24)

	// A config whose env options changed since its reference was played
	// is refused with the directory to delete; deleted, it plays again.
	changed := entries[:1]
	changed[0].Cfg.Env.Options = train.EnvOptions{"style": "brief", "partial_credit": true}
	_, err = References(context.Background(), changed, out, builtin.Registry(), eval.DefaultOracles())
	require.ErrorIs(t, err, eval.ErrOtherSettings)
	assert.ErrorContains(t, err, "reference play of guess: "+ReferenceDir(out, "guess")+" holds random play of other settings than the config's now")
	assert.ErrorContains(t, err, "delete that directory to play it again")
	require.NoError(t, os.RemoveAll(ReferenceDir(out, "guess")))
	_, err = References(context.Background(), changed, out, builtin.Registry(), eval.DefaultOracles())
	require.NoError(t, err)
}

// The random column is GEM's draw whatever the config's sample option;
// the informed player it names is played beside it, in a directory of its
// own, and wins more of GuessTheNumber-hard (the hints' interval against
// the whole range).
func TestReferencesPlayGEMsDrawBesideTheInformedSampler(t *testing.T) {
	p := writeSuite(t, "configs: [plain, informed, teacher]\nseeds: [1, 2, 3]\n", map[string]string{
		"plain":    "env: {id: \"game:GuessTheNumber-v0-hard\", options: {style: brief}}\neval: {episodes: 40}\n",
		"informed": "env: {id: \"game:GuessTheNumber-v0-hard\", options: {style: brief, sample: interval}}\neval: {episodes: 40}\n",
		"teacher":  "env: {id: \"game:GuessTheNumber-v0-hard\", options: {style: brief}}\nwarmup: {options: {sample: interval}}\neval: {episodes: 40}\n",
	})
	_, entries, err := Load(p)
	require.NoError(t, err)
	out := t.TempDir()
	refs, err := References(context.Background(), entries, out, builtin.Registry(), eval.DefaultOracles())
	require.NoError(t, err)
	plain, informed, teacher := refs["plain"], refs["informed"], refs["teacher"]
	assert.Equal(t, plain.Random, informed.Random, "the random column plays GEM's draw in both")
	assert.Equal(t, plain.Solver, informed.Solver)
	assert.False(t, plain.HasSampler)
	assert.True(t, math.IsNaN(plain.Sampler))
	require.True(t, informed.HasSampler)
	assert.Greater(t, informed.Sampler, informed.Random+0.2, "guessing inside the hints' interval wins far more often (0.72 against 0.17 on 200 games)")
	recs, err := eval.ReadResults(filepath.Join(ReferenceDir(out, "informed"), "sampler", eval.ResultsFile))
	require.NoError(t, err)
	assert.Len(t, recs, 40, "the informed player alone, on the 40 held-out seeds")
	tab := Table([]Row{{Name: "informed", Env: "game:GuessTheNumber-v0-hard", HasRef: true, Ref: informed, Seeds: 3}})
	assert.Equal(t, fmt.Sprintf("%.3f", informed.Sampler), tab[1][3])
	// warmup.options' sample: the informed column plays the warm-up's
	// teacher, the same player on the same seeds as env.options' sample
	assert.Equal(t, informed, teacher)
	recs, err = eval.ReadResults(filepath.Join(ReferenceDir(out, "teacher"), "sampler", eval.ResultsFile))
	require.NoError(t, err)
	assert.Len(t, recs, 40)
}

// A mixture's reference is the mean over its envs, each played on the
// held-out seeds in a directory of its own, as its training evaluates.
func TestReferencesOfAMixture(t *testing.T) {
	p := writeSuite(t, "configs: [guess, bits, mix]\nseeds: [1, 2, 3]\n", map[string]string{
		"guess": "env: {id: \"game:GuessTheNumber-v0-easy\", options: {style: brief, partial_credit: false}}\n",
		"bits":  "env: {id: \"rg:count_bits\", options: {style: brief, bits: 4}}\n",
		"mix": "env:\n  mix:\n    - {id: \"game:GuessTheNumber-v0-easy\", name: guess, weight: 1, options: {style: brief, partial_credit: false}}\n" +
			"    - {id: \"rg:count_bits\", weight: 3, options: {style: brief, bits: 4}}\n",
	})
	_, entries, err := Load(p)
	require.NoError(t, err)
	out := t.TempDir()
	refs, err := References(context.Background(), entries, out, builtin.Registry(), eval.DefaultOracles())
	require.NoError(t, err)
	m := refs["mix"]
	assert.InDelta(t, (refs["guess"].Random+refs["bits"].Random)/2, m.Random, 1e-12, "the evaluation's mean over envs, whatever the weights")
	assert.False(t, m.HasSolver, "count_bits has no solver")
	assert.True(t, math.IsNaN(m.Solver))
	assert.Equal(t, 12, m.Episodes)
	assert.Equal(t, 24, m.Plays, "random play's interval counts the episodes of both envs")
	assert.Equal(t, 12, refs["guess"].Plays)
	for _, d := range []string{"guess", "rg_count_bits"} {
		recs, err := eval.ReadResults(filepath.Join(ReferenceDir(out, "mix"), d, eval.ResultsFile))
		require.NoError(t, err, d)
		assert.NotEmpty(t, recs, d)
	}
	rows, _ := Rows(Suite{Seeds: []uint64{1, 2, 3}}, entries, nil, refs)
	assert.Equal(t, "mix: guess (1) + rg:count_bits (3)", rows[2].Env)
}

// The shipped suite lists every config of its directory, at least 24 envs
// across the families, each made and reset.
func TestShippedSuite(t *testing.T) {
	s, entries, err := Load("../configs/baselines/suite.yaml")
	require.NoError(t, err)
	assert.GreaterOrEqual(t, len(s.Seeds), 3)
	files, err := filepath.Glob("../configs/baselines/*.yaml")
	require.NoError(t, err)
	listed := map[string]bool{}
	ids := map[string]bool{}
	families := map[string]bool{}
	reg := builtin.Registry()
	for _, e := range entries {
		listed[e.Name] = true
		ids[e.Cfg.Env.ID] = true
		families[strings.SplitN(e.Cfg.Env.ID, ":", 2)[0]] = true
		assert.Equal(t, "baseline_"+e.Name, e.Cfg.Name, "%s: name matches the file", e.Path)
		t.Run(e.Name, func(t *testing.T) {
			if strings.HasPrefix(e.Cfg.Env.ID, "code:") {
				if _, _, err := sandbox.PythonFor(sandbox.DefaultPython, sandbox.Detect()); err != nil {
					t.Skipf("code envs need a Python 3 the sandbox can run: %v", err)
				}
			}
			env, err := reg.Make(e.Cfg.Env.ID, envs.FromMap(e.Cfg.Env.Options)...)
			require.NoError(t, err)
			_, _, err = env.Reset(1)
			require.NoError(t, err)
		})
	}
	for _, f := range files {
		n := strings.TrimSuffix(filepath.Base(f), ".yaml")
		if n == "base" || n == "suite" {
			continue
		}
		assert.True(t, listed[n], "%s is not in suite.yaml", f)
	}
	assert.GreaterOrEqual(t, len(ids), 24)
	for _, f := range []string{"game", "rg", "math", "logic", "qa", "code"} {
		assert.True(t, families[f], "no %s env in the suite", f)
	}
}
