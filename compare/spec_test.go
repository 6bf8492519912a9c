package compare

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/train"
)

func TestParseSpecErrors(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"empty", "", []string{"empty sweep file"}},
		{"unknown key", "base: x.yaml\narms: [{name: a}]\nseeds: [1, 2, 3]\nseed: 4\n",
			[]string{"unknown key seed in the sweep", "valid keys: name, base, set, arms, seeds"}},
		{"unknown arm key", "base: x.yaml\narms: [{name: a, sets: [x=1]}]\nseeds: [1, 2, 3]\n",
			[]string{"unknown key sets in an arm", "valid keys: name, set"}},
		{"no base", "arms: [{name: a}]\nseeds: [1, 2, 3]\n", []string{"base is missing"}},
		{"list base", "base: [a, b]\narms: [{name: a}]\nseeds: [1, 2, 3]\n", []string{"base (line 1) must be"}},
		{"no arms", "base: x.yaml\nseeds: [1, 2, 3]\n", []string{"arms is empty"}},
		{"two seeds", "base: x.yaml\narms: [{name: a}]\nseeds: [1, 2]\n", []string{"at least 3"}},
		{"repeated seed", "base: x.yaml\narms: [{name: a}]\nseeds: [1, 2, 2]\n", []string{"seed 2 is listed twice"}},
		{"bad arm name", "base: x.yaml\narms: [{name: a/b}]\nseeds: [1, 2, 3]\n", []string{`arms[0].name = "a/b"`}},
		{"repeated arm", "base: x.yaml\narms: [{name: a}, {name: a}]\nseeds: [1, 2, 3]\n", []string{`arms[1].name = "a" is used twice`}},
		{"threshold", "base: x.yaml\narms: [{name: a}]\nseeds: [1, 2, 3]\nthreshold: 1.5\n", []string{"threshold = 1.5"}},
		{"bad type", "base: x.yaml\narms: [{name: a}]\nseeds: [one, 2, 3]\n", []string{"YAML:", "one"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseSpec([]byte(tc.src))
			require.Error(t, err)
			for _, w := range tc.want {
				assert.ErrorContains(t, err, w)
			}
		})
	}
	s, err := ParseSpec([]byte("base: x.yaml\narms: [{name: a}]\nseeds: [1, 2, 3]\n"))
	require.NoError(t, err)
	assert.Equal(t, 0.5, s.Threshold, "default threshold")
}

func TestLoadSpecResolvesBase(t *testing.T) {
	dir := t.TempDir()
	cfgDir := filepath.Join(dir, "configs")
	require.NoError(t, os.MkdirAll(cfgDir, 0o755))
	base := "iterations: 7\nrollout: {episodes: 0, steps: 64}\n"
	require.NoError(t, os.WriteFile(filepath.Join(cfgDir, "base.yaml"), []byte(base), 0o644))
	sweep := "base: base.yaml\narms: [{name: a, set: [algo.name=reinforce]}]\nseeds: [4, 5, 6]\n"
	require.NoError(t, os.WriteFile(filepath.Join(cfgDir, "sw.yaml"), []byte(sweep), 0o644))

	// A bare name is found in the config directory, and so is its base.
	s, err := LoadSpec("sw", cfgDir)
	require.NoError(t, err)
	runs, err := s.Plan(filepath.Join(dir, "out"), nil)
	require.NoError(t, err)
	require.Len(t, runs, 3)
	assert.Equal(t, 7, runs[0].Cfg.Iterations)
	assert.Equal(t, "reinforce", runs[2].Cfg.Algo.Name)
	assert.Equal(t, uint64(6), runs[2].Cfg.Seed)

	_, err = LoadSpec("missing", cfgDir)
	assert.ErrorContains(t, err, "no such file")

	// A base that does not exist is reported when planning.
	require.NoError(t, os.WriteFile(filepath.Join(cfgDir, "bad.yaml"), []byte("base: nope.yaml\narms: [{name: a}]\nseeds: [1, 2, 3]\n"), 0o644))
	s, err = LoadSpec("bad", cfgDir)
	require.NoError(t, err)
	_, err = s.Plan(dir, nil)
	assert.ErrorContains(t, err, "base config")

	// An episode budget is refused between arms (episodes of different
	// lengths are not equal work) and allowed in a one-arm seed sweep.
	require.NoError(t, os.WriteFile(filepath.Join(cfgDir, "ep.yaml"), []byte("rollout: {episodes: 64}\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(cfgDir, "two.yaml"), []byte("base: ep.yaml\narms: [{name: a}, {name: b, set: [algo.gamma=0.5]}]\nseeds: [1, 2, 3]\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(cfgDir, "one.yaml"), []byte("base: ep.yaml\narms: [{name: a}]\nseeds: [1, 2, 3]\n"), 0o644))
	s, err = LoadSpec("two", cfgDir)
	require.NoError(t, err)
	_, err = s.Plan(dir, nil)
	assert.ErrorContains(t, err, "a comparison of arms budgets env steps")
	s, err = LoadSpec("one", cfgDir)
	require.NoError(t, err)
	runs, err = s.Plan(dir, nil)
	require.NoError(t, err)
	assert.Len(t, runs, 3)
	assert.Equal(t, 64, runs[0].Cfg.Rollout.Episodes)
}

// FuzzParseSpec checks that no sweep file makes ParseSpec panic, and that
// an accepted one satisfies the checks it promises.
func FuzzParseSpec(f *testing.F) {
	f.Add(tinySweep)
	f.Add("base: x.yaml\narms: [{name: a}]\nseeds: [1, 2, 3]\n")
	f.Add("base: {iterations: 3}\narms: [{name: a, set: [a=b]}]\nseeds: [1, 2, 3]\nthreshold: 0.7\n")
	f.Add("arms: 3")
	f.Fuzz(func(t *testing.T, src string) {
		s, err := ParseSpec([]byte(src))
		if err != nil {
			return
		}
		if len(s.Seeds) < MinSeeds || len(s.Arms) < 1 || !(s.Threshold > 0 && s.Threshold <= 1) {
			t.Fatalf("accepted an invalid sweep: %+v", s)
		}
		for _, a := range s.Arms {
			if !armName.MatchString(a.Name) {
				t.Fatalf("accepted arm name %q", a.Name)
			}
		}
	})
}

// A run's config.yaml saved before keys were added matches the sweep's
// config when the new keys' defaults are what it ran.
func TestSameConfig(t *testing.T) {
	old, err := os.ReadFile("../train/testdata/config_before_owned_keys.yaml")
	require.NoError(t, err)
	cfg, err := train.LoadFile("../configs/rebn_guess_obs.yaml", []string{"name=rebn_guess", "iterations=30", "eval.every=10", "checkpoint.every=10"})
	require.NoError(t, err)
	assert.True(t, SameConfig(old, cfg))
	y, err := cfg.Marshal()
	require.NoError(t, err)
	assert.True(t, SameConfig(y, cfg))
	cfg.Algo.Gamma = 0.5
	assert.False(t, SameConfig(old, cfg))
	assert.False(t, SameConfig([]byte("not: [yaml"), cfg))
}

// A sweep over a mixture: its arms share the mixture (HeldEqual compares
// env.mix like any env key), and arms that differ in it are refused.
func TestPlanMixture(t *testing.T) {
	dir := t.TempDir()
	mix := "env:\n  mix:\n    - {id: \"game:GuessTheNumber-v0-easy\", name: guess, weight: 1, options: {style: brief}}\n" +
		"    - {id: \"rg:count_bits\", weight: 2, options: {bits: 4}}\nrollout: {episodes: 0, steps: 64}\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "mix.yaml"), []byte(mix), 0o644))
	sweep := "base: mix.yaml\narms: [{name: rebn}, {name: grpo, set: [algo.name=grpo, rollout.group_size=4]}]\nseeds: [1, 2, 3]\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "sw.yaml"), []byte(sweep), 0o644))
	s, err := LoadSpec("sw", dir)
	require.NoError(t, err)
	runs, err := s.Plan(filepath.Join(dir, "out"), nil)
	require.NoError(t, err)
	require.Len(t, runs, 6)
	for _, r := range runs {
		assert.Empty(t, r.Cfg.Env.ID)
		assert.Equal(t, []string{"guess", "rg:count_bits"}, r.Cfg.MixNames())
		assert.Equal(t, 2.0, r.Cfg.Env.Mix[1].Weight)
	}

	bad := "base: mix.yaml\narms: [{name: a}, {name: b, set: [\"env.mix=[{id: rg:count_bits, weight: 1}]\"]}]\nseeds: [1, 2, 3]\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "bad.yaml"), []byte(bad), 0o644))
	s, err = LoadSpec("bad", dir)
	require.NoError(t, err)
	_, err = s.Plan(filepath.Join(dir, "out"), nil)
	assert.ErrorContains(t, err, "env differs")
}
