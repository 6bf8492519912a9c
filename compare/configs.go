package compare

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/gemgo/gemgo/train"
)

// configDiff lists the config keys whose values differ between arms: a
// header row (key, then one column per arm) and one row per key.
func configDiff(spec Spec, runs []Run) [][]string {
	flat := map[string]map[string]string{}
	for _, a := range spec.Arms {
		for _, r := range runs {
			if r.Arm == a.Name {
				c := r.Cfg
				c.Seed, c.Name = 0, ""
				flat[a.Name] = flatten(c)
				break
			}
		}
	}
	keys := map[string]bool{}
	for _, f := range flat {
		for k := range f {
			keys[k] = true
		}
	}
	header := []string{"key"}
	for _, a := range spec.Arms {
		header = append(header, a.Name)
	}
	out := [][]string{header}
	for _, k := range slices.Sorted(func(yield func(string) bool) {
		for k := range keys {
			if !yield(k) {
				return
			}
		}
	}) {
		row := []string{k}
		differ := false
		for _, a := range spec.Arms {
			v := flat[a.Name][k]
			if v != flat[spec.Arms[0].Name][k] {
				differ = true
			}
			row = append(row, v)
		}
		if differ {
			out = append(out, row)
		}
	}
	return out
}

// flatten renders a config as section.key → value lines of its YAML.
func flatten(c train.Config) map[string]string {
	y, err := c.Marshal()
	if err != nil {
		return nil
	}
	out := map[string]string{}
	section := ""
	for _, line := range strings.Split(string(y), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		indent := len(line) - len(strings.TrimLeft(line, " "))
		k, v, _ := strings.Cut(strings.TrimSpace(line), ":")
		v = strings.TrimSpace(v)
		switch {
		case indent == 0 && v == "":
			section = k
		case indent == 0:
			out[k] = v
		default:
			out[section+"."+strings.TrimSpace(k)] = v
		}
	}
	return out
}

// checkRan returns a warning when the runs that ran differ in what a fair
// comparison holds equal: between arms, or between the seeds of one arm
// beyond their seed and name.
func checkRan(spec Spec, ran []Run) string {
	var msgs []string
	first := map[string]Run{}
	for _, r := range ran {
		f, ok := first[r.Arm]
		if !ok {
			first[r.Arm] = r
			continue
		}
		a, b := f.Cfg, r.Cfg
		a.Seed, a.Name, b.Seed, b.Name = 0, "", 0, ""
		ya, _ := a.Marshal()
		yb, _ := b.Marshal()
		if !bytes.Equal(ya, yb) {
			msgs = append(msgs, fmt.Sprintf("arm %s: seeds %d and %d ran with different configs", r.Arm, f.Seed, r.Seed))
		}
	}
	var base *Run
	for _, a := range spec.Arms {
		r, ok := first[a.Name]
		if !ok {
			continue
		}
		if base == nil {
			base = &r
			continue
		}
		if err := HeldEqual(base.Cfg, r.Cfg); err != nil {
			msgs = append(msgs, fmt.Sprintf("arms %s and %s: %v", base.Arm, r.Arm, err))
		}
	}
	if len(msgs) == 0 {
		return ""
	}
	return strings.Join(msgs, "\n") + "\n\nThe sweep's base config changed between runs: delete the output directory and run the sweep again."
}
