package compare

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/gemgo/gemgo/train"
)

// Spec is a sweep: arms × seeds over one base training config.
type Spec struct {
	Name string `yaml:"name"` // the sweep's name: the default output directory runs/compare/<name>
	// Base is the training config every run starts from: a path to a YAML
	// file (relative to the sweep file, as a training config's base:, or a
	// bare name in configs/) or an inline mapping.
	Base yaml.Node `yaml:"base"`
	Set  []string  `yaml:"set"`  // key=value overrides applied to every arm
	Arms []Arm     `yaml:"arms"` // the setups compared
	// Seeds are the training seeds (train's seed), at least 3; the held-out
	// evaluation seeds stay those of eval.seed_base for every run.
	Seeds     []uint64 `yaml:"seeds"`
	Threshold float64  `yaml:"threshold"` // greedy success rate whose first crossing is reported (default 0.5)
	// Notes is free text shown at the top of the report (what is compared and why).
	Notes string `yaml:"notes"`
	// ShareWarmup trains one format warm-up per seed and starts every
	// arm of the seed from it (sharedwarmup.go): the same runs, bit for
	// bit, without repeating the warm-up for each arm. The arms must then
	// agree on every setting the warm-up reads (warmupPart), not only on
	// those HeldEqual checks.
	ShareWarmup bool `yaml:"share_warmup"`
}

// Arm is one compared setup: the base config with a few overrides.
type Arm struct {
	Name string   `yaml:"name"` // a directory name: letters, digits, '.', '_', '-'
	Set  []string `yaml:"set"`  // key=value overrides, e.g. algo.name=grpo
}

// MinSeeds is the fewest seeds a sweep may use.
const MinSeeds = 3

var armName = regexp.MustCompile(`^[A-Za-z0-9._-]+$`)

// LoadSpec reads a sweep file strictly (an unknown key is an error naming
// it). A bare name is looked up in configDir. A base given as a path is
// resolved as a training config resolves its base: (train.BasePath),
// relative to the sweep file's directory, then as a bare name in
// configDir.
func LoadSpec(path, configDir string) (Spec, error) {
	path = train.ResolveConfigPath(path, configDir)
	data, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return Spec{}, fmt.Errorf("sweep %s: no such file (configs/compare_*.yaml are the shipped sweeps)", path)
		}
		return Spec{}, fmt.Errorf("sweep %s: %w", path, err)
	}
	s, err := ParseSpec(data)
	if err != nil {
		return Spec{}, fmt.Errorf("sweep %s: %w", path, err)
	}
	if s.Base.Kind == yaml.ScalarNode {
		p := train.BasePath(s.Base.Value, filepath.Dir(path))
		if !fileExists(p) {
			p = train.ResolveConfigPath(s.Base.Value, configDir)
		}
		s.Base.Value = p
	}
	return s, nil
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

// ParseSpec decodes a sweep strictly and checks its own fields (the runs'
// configs are checked by Plan).
func ParseSpec(data []byte) (Spec, error) {
	var s Spec
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&s); err != nil {
		if errors.Is(err, io.EOF) {
			return Spec{}, errors.New("empty sweep file: it needs base, arms and seeds")
		}
		return Spec{}, explainSpecYAML(err)
	}
	if s.Threshold == 0 {
		s.Threshold = 0.5
	}
	return s, s.validate()
}

var specKeys = regexp.MustCompile(`field (\S+) not found in type compare\.(\w+)`)

// explainSpecYAML names the valid keys next to an unknown one.
func explainSpecYAML(err error) error {
	msg := err.Error()
	msg = specKeys.ReplaceAllStringFunc(msg, func(m string) string {
		sub := specKeys.FindStringSubmatch(m)
		var t reflect.Type
		switch sub[2] {
		case "Spec":
			t = reflect.TypeFor[Spec]()
		case "Arm":
			t = reflect.TypeFor[Arm]()
		default:
			return m
		}
		var keys []string
		for i := range t.NumField() {
			keys = append(keys, strings.Split(t.Field(i).Tag.Get("yaml"), ",")[0])
		}
		where := "the sweep"
		if sub[2] == "Arm" {
			where = "an arm"
		}
		return fmt.Sprintf("unknown key %s in %s (valid keys: %s)", sub[1], where, strings.Join(keys, ", "))
	})
	return fmt.Errorf("YAML: %s", msg)
}

func (s *Spec) validate() error {
	var errs []string
	bad := func(format string, args ...any) { errs = append(errs, fmt.Sprintf(format, args...)) }
	if s.Name != "" && !armName.MatchString(s.Name) {
		bad("name = %q: use letters, digits, '.', '_' and '-' only", s.Name)
	}
	switch s.Base.Kind {
	case 0:
		bad("base is missing: give a config path (e.g. base: rebn_guess.yaml) or an inline mapping")
	case yaml.ScalarNode:
		if s.Base.Value == "" {
			bad("base is empty: give a config path or an inline mapping")
		}
	case yaml.MappingNode:
	default:
		bad("base (line %d) must be a config path or a mapping of config sections", s.Base.Line)
	}
	if len(s.Arms) < 1 {
		bad("arms is empty: list at least one arm (name and set)")
	}
	seen := map[string]bool{}
	for i, a := range s.Arms {
		if !armName.MatchString(a.Name) {
			bad("arms[%d].name = %q: use letters, digits, '.', '_' and '-' only (it names a directory)", i, a.Name)
		}
		if seen[a.Name] {
			bad("arms[%d].name = %q is used twice", i, a.Name)
		}
		seen[a.Name] = true
	}
	if len(s.Seeds) < MinSeeds {
		bad("seeds has %d values: a comparison needs at least %d", len(s.Seeds), MinSeeds)
	}
	seenSeed := map[uint64]bool{}
	for _, sd := range s.Seeds {
		if seenSeed[sd] {
			bad("seed %d is listed twice", sd)
		}
		seenSeed[sd] = true
	}
	if !(s.Threshold > 0 && s.Threshold <= 1) {
		bad("threshold = %v: allowed (0, 1] (a greedy success rate)", s.Threshold)
	}
	if len(errs) > 0 {
		return fmt.Errorf("invalid sweep:\n  %s", strings.Join(errs, "\n  "))
	}
	return nil
}

// load resolves one arm's training config: the base (a file, loaded as
// train loads any config, its own base: included, or an inline mapping),
// then the overrides.
func (s *Spec) load(overrides []string) (train.Config, error) {
	if s.Base.Kind == yaml.ScalarNode {
		if !fileExists(s.Base.Value) {
			return train.Config{}, fmt.Errorf("base config %s: no such file (a bare name is looked up in configs/)", s.Base.Value)
		}
		return train.LoadFile(s.Base.Value, overrides)
	}
	data, err := yaml.Marshal(&s.Base)
	if err != nil {
		return train.Config{}, fmt.Errorf("base config: %w", err)
	}
	return train.Parse(data, overrides)
}

// Run is one arm × seed of a sweep.
type Run struct {
	Arm  string
	Seed uint64
	Dir  string // out/<arm>/seed<k>
	Cfg  train.Config
	// Warmup is the seed's shared warm-up file (SharedWarmupPath) when
	// the sweep shares warm-ups; "" when each run trains its own.
	Warmup string
}

// Plan resolves every run's training config: base, then the sweep's set,
// then extra (e.g. -set flags), then the arm's set, then the seed and the
// run name. It fails when the arms differ in anything that must be held
// equal (see HeldEqual).
func (s *Spec) Plan(out string, extra []string) ([]Run, error) {
	var runs []Run
	var first train.Config
	for i, a := range s.Arms {
		sets := append(append(append([]string{}, s.Set...), extra...), a.Set...)
		cfg, err := s.load(sets)
		if err != nil {
			return nil, fmt.Errorf("arm %s: %w", a.Name, err)
		}
		if cfg.Rollout.Steps == 0 && len(s.Arms) > 1 {
			// one arm is a seed sweep: its runs share every setting, so
			// an episode budget is as fair as a step budget
			return nil, fmt.Errorf("arm %s: rollout.episodes = %d: a comparison of arms budgets env steps, so set rollout.steps (and rollout.episodes=0); episodes of different lengths are not equal work", a.Name, cfg.Rollout.Episodes)
		}
		if i == 0 {
			first = cfg
			if s.ShareWarmup {
				if err := checkShareable(cfg); err != nil {
					return nil, fmt.Errorf("share_warmup: %w", err)
				}
			}
		} else if err := HeldEqual(first, cfg); err != nil {
			return nil, fmt.Errorf("arms %s and %s: %w", s.Arms[0].Name, a.Name, err)
		} else if s.ShareWarmup {
			if d := warmupDiff(first, cfg); len(d) > 0 {
				return nil, fmt.Errorf("arms %s and %s: share_warmup needs the settings the warm-up reads held equal, and %s differ; move the override to the sweep's set, or drop share_warmup", s.Arms[0].Name, a.Name, strings.Join(d, ", "))
			}
		}
		for _, seed := range s.Seeds {
			c := cfg
			c.Seed = seed
			c.Name = fmt.Sprintf("%s-%s-seed%d", s.Name, a.Name, seed)
			if s.Name == "" {
				c.Name = fmt.Sprintf("%s-seed%d", a.Name, seed)
			}
			if err := c.Validate(); err != nil {
				return nil, fmt.Errorf("arm %s seed %d: %w", a.Name, seed, err)
			}
			r := Run{Arm: a.Name, Seed: seed, Dir: RunDir(out, a.Name, seed), Cfg: c}
			if s.ShareWarmup {
				r.Warmup = SharedWarmupPath(out, seed)
			}
			runs = append(runs, r)
		}
	}
	return runs, nil
}

// RunDir is where a sweep keeps one arm × seed.
func RunDir(out, arm string, seed uint64) string {
	return filepath.Join(out, arm, fmt.Sprintf("seed%d", seed))
}

// HeldEqual returns an error naming the first section that differs between
// two runs' configs among those a fair comparison holds equal: env, model,
// tokenizer, warm-up, iterations, rollout.steps and evaluation.
func HeldEqual(a, b train.Config) error {
	for _, f := range []struct {
		name string
		x, y any
	}{
		{"env", a.Env, b.Env},
		{"model", a.Model, b.Model},
		{"tokenizer", a.Tokenizer, b.Tokenizer},
		{"warmup", a.Warmup, b.Warmup},
		{"iterations", a.Iterations, b.Iterations},
		{"rollout.steps", a.Rollout.Steps, b.Rollout.Steps},
		{"eval", a.Eval, b.Eval},
	} {
		if !reflect.DeepEqual(f.x, f.y) {
			return fmt.Errorf("%s differs (%+v vs %+v): a fair comparison holds it equal; move the override to the sweep's set", f.name, f.x, f.y)
		}
	}
	return nil
}
