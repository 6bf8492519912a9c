package compare

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

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

// flatten renders a config as its dotted keys (section.key, and deeper
// for maps such as env.options.style) → each leaf's value in YAML flow
// style, as -set takes it.
func flatten(c train.Config) map[string]string {
	y, err := c.Marshal()
	if err != nil {
		return nil
	}
	var m map[string]any
	if err := yaml.Unmarshal(y, &m); err != nil {
		return nil
	}
	out := map[string]string{}
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		if sub, ok := v.(map[string]any); ok && len(sub) > 0 {
			for k, x := range sub {
				walk(prefix+k+".", x)
			}
			return
		}
		out[strings.TrimSuffix(prefix, ".")] = flowYAML(v)
	}
	walk("", m)
	return out
}

// flowYAML is v in YAML flow style on one line ("brief", [a, b], {}).
func flowYAML(v any) string {
	var n yaml.Node
	if err := n.Encode(v); err != nil {
		return fmt.Sprint(v)
	}
	var flow func(*yaml.Node)
	flow = func(n *yaml.Node) {
		n.Style |= yaml.FlowStyle
		for _, c := range n.Content {
			flow(c)
		}
	}
	flow(&n)
	b, err := yaml.Marshal(&n)
	if err != nil {
		return fmt.Sprint(v)
	}
	return strings.TrimSpace(string(b))
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
