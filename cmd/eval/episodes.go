package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/eval"
)

// episodesFlag is -episodes: a number of seeds per env, or "all".
type episodesFlag struct {
	n   *int
	all bool
}

func (f *episodesFlag) String() string {
	if f.all {
		return "all"
	}
	if f.n == nil {
		return ""
	}
	return strconv.Itoa(*f.n)
}

func (f *episodesFlag) Set(s string) error {
	if s == "all" {
		f.all = true
		return nil
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return fmt.Errorf("want a number of seeds per env or all")
	}
	*f.n, f.all = n, false
	return nil
}

// resolveAll sets cfg.Episodes to the number of items of the envs, for
// -episodes all: every env must report its size (eval.Sizer), and all the
// same one, since one evaluation plays the same seeds on every env. With
// seedBaseSet false the seeds start at 0, so that seed i plays item i, in
// file order.
func resolveAll(reg *envs.Registry, cfg *eval.Config, seedBaseSet bool) error {
	sizes := make([]string, 0, len(cfg.Envs))
	n := -1
	for _, spec := range cfg.Envs {
		size, ok, err := eval.EnvSize(reg, cfg, spec)
		if err != nil {
			return fmt.Errorf("-episodes all: -env %s: %w", spec, err)
		}
		if !ok {
			return fmt.Errorf("-episodes all: -env %s has no fixed list of items (it draws each episode from its seed): give -episodes N", spec)
		}
		sizes = append(sizes, fmt.Sprintf("%s %d", spec, size))
		if n >= 0 && size != n {
			return fmt.Errorf("-episodes all: the envs hold different numbers of items (%s): run one evaluation per env", strings.Join(sizes, ", "))
		}
		n = size
	}
	cfg.Episodes = n
	if !seedBaseSet {
		cfg.SeedBase = 0
	}
	return nil
}
