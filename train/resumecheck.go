package train

import (
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/metrics"
)

// ErrFinished is returned by Run with Options.Resume for a run that has
// already done all its iterations; no file of the run directory is
// touched.
var ErrFinished = errors.New("already finished")

// mayChangeOnResume reports whether a resume may change key: the keys
// that decide when the run saves a checkpoint, not what it trains, and
// iterations when the learning-rate schedule does not depend on it (no
// cosine decay, which follows the iterations): a longer run then continues
// the same trajectory. Every other key alters the trajectory (the RNG
// stream, the updates, the env, the schedule) and a change is refused.
func mayChangeOnResume(key string, cfg Config) bool {
	switch key {
	case "checkpoint.every":
		return true
	case "iterations":
		return !cfg.Optim.Cosine
	}
	return false
}

// stepSchedule handles a checkpoint from before the cosine decay followed
// the iterations, whose config has optim.total_steps (the decay's end in
// optimizer steps; 0: an estimate of the run's steps). Without
// optim.cosine the rate was constant after the warm-up then as now, and
// the key is dropped from was (changed: config.yaml is rewritten without
// it); with it the remaining iterations would train at other rates, and
// the resume is refused.
func stepSchedule(was map[string]any, cfgPath string) (changed bool, err error) {
	total, ok := was["optim.total_steps"]
	if !ok {
		return false, nil
	}
	if cosine, _ := was["optim.cosine"].(bool); cosine {
		return false, fmt.Errorf("the checkpoint was trained under the older learning-rate schedule, whose cosine decay "+
			"followed optimizer steps (optim.total_steps = %s; 0: an estimate of the run's steps); the decay now follows "+
			"iterations, so the remaining iterations would train at other rates than the run began with: start a new run "+
			"(train -config %s, without optim.total_steps), or finish this one with a build from before the change",
			show(total, true), cfgPath)
	}
	delete(was, "optim.total_steps")
	return true, nil
}

// checkResumeConfig compares the resolved config (cfg and its YAML: the
// run's config.yaml with any -set overrides) with the one the checkpoint
// was written under (saved), and refuses a change of a key that alters the
// trajectory, naming the keys. changed reports an allowed change, after
// which config.yaml must be rewritten to stay the run's record.
func checkResumeConfig(dir string, saved []byte, cfg Config, cfgYAML []byte) (changed bool, err error) {
	if len(saved) == 0 {
		return false, nil // a checkpoint from before configs were saved in it
	}
	was, err := flatten(saved)
	if err != nil {
		return false, fmt.Errorf("the checkpoint's config: %w", err)
	}
	now, err := flatten(cfgYAML)
	if err != nil {
		return false, err
	}
	cfgPath := filepath.Join(dir, ConfigFile)
	if changed, err = stepSchedule(was, cfgPath); err != nil {
		return false, err
	}
	var refused []string
	for _, k := range unionKeys(was, now) {
		a, inA := was[k]
		b, inB := now[k]
		if inA == inB && reflect.DeepEqual(a, b) {
			continue
		}
		if mayChangeOnResume(k, cfg) {
			changed = true
			continue
		}
		why := ""
		if k == "iterations" {
			why = " [the cosine decay of the learning rate follows the iterations, ending at the last: optim.cosine=false when the run starts lets it be extended]"
		}
		refused = append(refused, fmt.Sprintf("%s (%s → %s)%s", k, show(a, inA), show(b, inB), why))
	}
	if len(refused) == 0 {
		return changed, nil
	}
	const most = 8
	if len(refused) > most {
		refused = append(refused[:most], fmt.Sprintf("and %d more", len(refused)-most))
	}
	return false, fmt.Errorf("the config differs from the one the checkpoint was trained under, in %s: "+
		"a resumed run continues the checkpoint's trajectory, so it keeps its config; undo the change "+
		"(in %s or -set), or start a new run from it: train -config %s -set KEY=VALUE",
		strings.Join(refused, ", "), cfgPath, cfgPath)
}

// flatten decodes config YAML into dotted keys and their values.
func flatten(data []byte) (map[string]any, error) {
	var m map[string]any
	if err := yaml.Unmarshal(data, &m); err != nil {
		return nil, err
	}
	out := map[string]any{}
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		if sub, ok := v.(map[string]any); ok && len(sub) > 0 {
			for k, x := range sub {
				walk(prefix+k+".", x)
			}
			return
		}
		out[strings.TrimSuffix(prefix, ".")] = v
	}
	walk("", m)
	return out, nil
}

func unionKeys(a, b map[string]any) []string {
	keys := make([]string, 0, len(a))
	for k := range a {
		keys = append(keys, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return keys
}

func show(v any, present bool) string {
	if !present {
		return "unset"
	}
	return envs.ExcerptValue(v)
}

// lastEval is the latest evaluation logged in rows (the zero EvalResult
// when there is none), so that a resumed run's report keeps it; names
// are the envs of an evaluation of several (nil for one).
func lastEval(rows []metrics.Row, episodes int, names []string) EvalResult {
	for i := len(rows) - 1; i >= 0; i-- {
		m := rows[i].Metrics
		if s, ok := m["eval/success_rate"]; ok {
			e := EvalResult{Iteration: rows[i].Iteration, Episodes: episodes, SuccessRate: s,
				MeanReturn: m["eval/episodic_return"], MeanTurns: m["eval/turns"], SolvedTurns: m["eval/solved_turns"],
				ToolCalls: m["eval/tool_calls"], SampledSuccessRate: m["eval/sampled_success_rate"], SampledReturn: m["eval/sampled_episodic_return"]}
			for _, n := range names {
				e.PerEnv = append(e.PerEnv, EnvEval{Name: n, SuccessRate: m["eval/success_rate/"+n], MeanReturn: m["eval/episodic_return/"+n],
					SampledSuccessRate: m["eval/sampled_success_rate/"+n], SampledReturn: m["eval/sampled_episodic_return/"+n]})
			}
			return e
		}
	}
	return EvalResult{}
}
