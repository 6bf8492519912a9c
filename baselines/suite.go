package baselines

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/gemgo/gemgo/compare"
	"github.com/gemgo/gemgo/train"
)

// Suite is a suite file: training configs, one per env, trained on the same
// seeds.
type Suite struct {
	Name string `yaml:"name"` // the default output directory runs/<name>
	// Configs are training config files, relative to the suite file's
	// directory (".yaml" may be left off); each is one row of the table.
	// An entry's name is its file name without ".yaml".
	Configs []string `yaml:"configs"`
	// Seeds are the training seeds of every config, at least 3.
	Seeds []uint64 `yaml:"seeds"`
	// Notes is free text shown at the top of the report.
	Notes string `yaml:"notes"`

	dir string // the suite file's directory
}

// Entry is one config of a suite, resolved.
type Entry struct {
	Name string // the file name without .yaml: the run directory
	Path string
	Cfg  train.Config // as the file sets it (seed and name are set per run)
}

var entryName = regexp.MustCompile(`^[A-Za-z0-9._-]+$`)

// Load reads a suite file strictly (an unknown key is an error naming the
// valid ones) and resolves its configs.
func Load(path string) (Suite, []Entry, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return Suite{}, nil, fmt.Errorf("suite %s: no such file (configs/baselines/suite.yaml is the shipped one)", path)
		}
		return Suite{}, nil, fmt.Errorf("suite %s: %w", path, err)
	}
	s, err := Parse(data)
	if err != nil {
		return Suite{}, nil, fmt.Errorf("suite %s: %w", path, err)
	}
	s.dir = filepath.Dir(path)
	entries, err := s.entries()
	if err != nil {
		return Suite{}, nil, fmt.Errorf("suite %s: %w", path, err)
	}
	return s, entries, nil
}

// Parse decodes a suite strictly and checks its own fields.
func Parse(data []byte) (Suite, error) {
	var s Suite
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&s); err != nil {
		if errors.Is(err, io.EOF) {
			return Suite{}, errors.New("empty suite file: it needs configs and seeds")
		}
		if strings.Contains(err.Error(), "not found in type baselines.Suite") {
			return Suite{}, fmt.Errorf("YAML: %v (valid keys: name, configs, seeds, notes)", err)
		}
		return Suite{}, fmt.Errorf("YAML: %w", err)
	}
	var errs []string
	if s.Name != "" && !entryName.MatchString(s.Name) {
		errs = append(errs, fmt.Sprintf("name = %q: use letters, digits, '.', '_' and '-' only", s.Name))
	}
	if len(s.Configs) == 0 {
		errs = append(errs, "configs is empty: list the training config files, one per env")
	}
	if len(s.Seeds) < compare.MinSeeds {
		errs = append(errs, fmt.Sprintf("seeds has %d values: a baseline needs at least %d", len(s.Seeds), compare.MinSeeds))
	}
	seen := map[uint64]bool{}
	for _, sd := range s.Seeds {
		if seen[sd] {
			errs = append(errs, fmt.Sprintf("seed %d is listed twice", sd))
		}
		seen[sd] = true
	}
	if len(errs) > 0 {
		return Suite{}, fmt.Errorf("invalid suite:\n  %s", strings.Join(errs, "\n  "))
	}
	return s, nil
}

// entries loads every config of the suite.
func (s *Suite) entries() ([]Entry, error) {
	var out []Entry
	seen := map[string]bool{}
	var errs []string
	for _, c := range s.Configs {
		name := strings.TrimSuffix(filepath.Base(c), ".yaml")
		if !entryName.MatchString(name) {
			errs = append(errs, fmt.Sprintf("config %q: its file name must use letters, digits, '.', '_' and '-' only (it names a directory)", c))
			continue
		}
		if seen[name] {
			errs = append(errs, fmt.Sprintf("config %q is listed twice", name))
			continue
		}
		seen[name] = true
		p := train.BasePath(c, s.dir)
		cfg, err := train.LoadFile(p, nil)
		if err != nil {
			errs = append(errs, fmt.Sprintf("config %s: %v", c, err))
			continue
		}
		if len(cfg.Env.Tools) > 0 {
			errs = append(errs, fmt.Sprintf("config %s: env.tools is set: a baseline's random-play column plays the bare env, so tool-wrapped configs are compared with cmd/compare instead", c))
			continue
		}
		out = append(out, Entry{Name: name, Path: p, Cfg: cfg})
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("invalid configs:\n  %s", strings.Join(errs, "\n  "))
	}
	return out, nil
}

// Plan returns every entry × seed as a run in out/<entry>/seed<k>.
func (s *Suite) Plan(entries []Entry, out string) ([]compare.Run, error) {
	var runs []compare.Run
	for _, e := range entries {
		for _, seed := range s.Seeds {
			c := e.Cfg
			c.Seed = seed
			c.Name = fmt.Sprintf("%s-seed%d", e.Name, seed)
			if err := c.Validate(); err != nil {
				return nil, fmt.Errorf("config %s seed %d: %w", e.Name, seed, err)
			}
			runs = append(runs, compare.Run{Arm: e.Name, Seed: seed, Dir: compare.RunDir(out, e.Name, seed), Cfg: c})
		}
	}
	return runs, nil
}

// spec is the suite as a compare.Spec, for compare's summaries: one arm
// per entry (compare never checks a suite's arms for equality).
func (s *Suite) spec(entries []Entry) compare.Spec {
	sp := compare.Spec{Name: s.Name, Seeds: s.Seeds, Threshold: 0.5}
	for _, e := range entries {
		sp.Arms = append(sp.Arms, compare.Arm{Name: e.Name})
	}
	return sp
}
