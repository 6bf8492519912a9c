package train

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"sync/atomic"

	"github.com/gemgo/gemgo/envs"
)

// Training on a mixture (env.mix). Each episode plays one entry of the
// mixture, chosen by pickEnv from the episode's seed: an RNG seeded with
// the seed draws a number in [0, total weight) and the entry whose share
// of the cumulative weights holds it plays. So:
//   - the choice is deterministic: the same config and seed give the same
//     episode seeds (rollout.SeedSequence) and hence the same envs;
//   - the batch keeps its shape: env.num_envs slots and rollout.episodes
//     (or steps) as for one env; a slot plays whichever entry its next
//     seed draws, holding one env of each entry;
//   - a GRPO group (one seed, group_size episodes) plays one env;
//   - the shares are of episodes, in expectation: weights 1 and 1 give
//     each env about half of an iteration's episodes, not exactly half.
//
// The tokenizer's corpus and the warm-up's pool come from random play of
// the mixture in the same way (seeds seed<<20, seed<<20+1, …), and the run
// refuses to start when an entry met no episode there: its text would be
// missing from the vocabulary.

// mixStream is the second PCG word of pickEnv's RNG, so that its draws
// are unrelated to those of an env that seeds a PCG with the seed alone.
const mixStream = 0x6d69785f656e7673

// pickEnv is the index of the entry of cumulative weights cum that plays
// the episode of seed.
func pickEnv(cum []float64, seed uint64) int {
	if len(cum) == 1 {
		return 0
	}
	u := rand.New(rand.NewPCG(seed, mixStream)).Float64() * cum[len(cum)-1]
	for i, c := range cum {
		if u < c {
			return i
		}
	}
	return len(cum) - 1
}

// cumulative is the running sum of the mixture's weights.
func cumulative(mix []MixEntry) []float64 {
	cum := make([]float64, len(mix))
	total := 0.0
	for i, m := range mix {
		total += m.Weight
		cum[i] = total
	}
	return cum
}

// entryName is an env's name in metrics: name, or its id.
func entryName(name, id string) string {
	if name != "" {
		return name
	}
	return id
}

// mixEnvConfig is the env config of one entry: env's shared keys with the
// entry's id, options and history.
func (c Config) mixEnvConfig(m MixEntry) EnvConfig {
	ec := c.Env
	ec.ID, ec.Options, ec.Mix = m.ID, m.Options, nil
	if m.History != "" {
		ec.History = m.History
	}
	return ec
}

// MixNames is the names of the mixture's entries in order (nil for one env).
func (c Config) MixNames() []string {
	var out []string
	for _, m := range c.Env.Mix {
		out = append(out, entryName(m.Name, m.ID))
	}
	return out
}

// EnvLabel names what the run trains on: env.id, or the mixture's names
// with their weights ("mix: a (1) + b (2)").
func (c Config) EnvLabel() string {
	if len(c.Env.Mix) == 0 {
		return c.Env.ID
	}
	parts := make([]string, len(c.Env.Mix))
	for i, m := range c.Env.Mix {
		parts[i] = fmt.Sprintf("%s (%g)", entryName(m.Name, m.ID), m.Weight)
	}
	return "mix: " + strings.Join(parts, " + ")
}

// validName checks one env name of env.mix or eval.envs: metric keys end
// with it.
func validName(name string) string {
	if name == "" || strings.ContainsAny(name, "/ \t\n") {
		return "must be non-empty with no '/' or blanks (it ends metric names such as charts/success_rate/NAME); set name"
	}
	return ""
}

// validateMix checks env.mix.
func (c *Config) validateMix() []string {
	var errs []string
	bad := func(format string, args ...any) { errs = append(errs, fmt.Sprintf(format, args...)) }
	if len(c.Env.Mix) == 0 {
		return nil
	}
	if len(c.Env.Options) > 0 {
		bad("env.options is set with env.mix: give each entry its options (env.mix[i].options); env.options applies to env.id")
	}
	if len(c.Env.Mix) > 64 {
		bad("env.mix has %d entries: allowed at most 64 (a slot holds one env of each)", len(c.Env.Mix))
	}
	seen := map[string]int{}
	for i, m := range c.Env.Mix {
		if !(m.Weight > 0) || math.IsInf(m.Weight, 0) {
			bad("env.mix[%d].weight = %v: must be a finite number > 0 (the entry's relative share of the episodes)", i, m.Weight)
		}
		checkNamed("env.mix", i, m.ID, entryName(m.Name, m.ID), m.History, seen, bad)
	}
	return errs
}

// validateEvalEnvs checks eval.envs.
func (c *Config) validateEvalEnvs() []string {
	var errs []string
	bad := func(format string, args ...any) { errs = append(errs, fmt.Sprintf(format, args...)) }
	if len(c.Eval.Envs) == 0 {
		return nil
	}
	if len(c.Eval.Options) > 0 {
		bad("eval.options is set with eval.envs: give each eval env its options (eval.envs[i].options)")
	}
	if len(c.Eval.Envs) > 64 {
		bad("eval.envs has %d entries: allowed at most 64", len(c.Eval.Envs))
	}
	seen := map[string]int{}
	for i, e := range c.Eval.Envs {
		checkNamed("eval.envs", i, e.ID, entryName(e.Name, e.ID), e.History, seen, bad)
	}
	return errs
}

// checkNamed checks entry i of a list of named envs (env.mix, eval.envs):
// an id, a valid name no earlier entry has (seen: name → index), a known
// history.
func checkNamed(field string, i int, id, name, history string, seen map[string]int, bad func(string, ...any)) {
	if id == "" {
		bad("%s[%d].id is empty: name a registered env (go run ./cmd/play -list prints them)", field, i)
	} else if msg := validName(name); msg != "" {
		bad("%s[%d].name = %q: %s", field, i, name, msg)
	}
	switch history {
	case "", envs.HistoryNone, envs.HistoryObservations, envs.HistoryActions:
	default:
		bad("%s[%d].history = %q: allowed none, observations, actions (or empty for env.history)", field, i, history)
	}
	if j, dup := seen[name]; dup {
		bad("%s[%d] and %s[%d] are both named %q: give one a distinct name (%s[i].name)", field, j, field, i, name, field)
	}
	seen[name] = i
}

// NamedEnv is one env of an evaluation of several, under its name.
type NamedEnv struct {
	Name string
	Env  EnvConfig
}

// EvalEnvs lists the envs of the held-out evaluation when it plays
// several: eval.envs, else each entry of the mixture (eval.options over
// its options); nil for one env, which is Config.EvalEnv.
func (c Config) EvalEnvs() []NamedEnv {
	var out []NamedEnv
	switch {
	case len(c.Eval.Envs) > 0:
		for _, e := range c.Eval.Envs {
			ec := c.Env
			ec.ID, ec.Options, ec.Mix = e.ID, e.Options, nil
			if e.History != "" {
				ec.History = e.History
			}
			out = append(out, NamedEnv{Name: entryName(e.Name, e.ID), Env: ec})
		}
	case len(c.Env.Mix) > 0:
		for _, m := range c.Env.Mix {
			one := c
			one.Env.Mix = []MixEntry{m}
			out = append(out, NamedEnv{Name: entryName(m.Name, m.ID), Env: one.EvalEnv()})
		}
	}
	return out
}

// evalTarget is one env the held-out evaluation plays.
type evalTarget struct {
	name   string
	env    EnvConfig
	newEnv func() (envs.Env, error)
}

// evalTargets is EvalEnvs with a factory for each.
func (c Config) evalTargets(ctx context.Context, reg *envs.Registry, made *atomic.Uint64) []evalTarget {
	var out []evalTarget
	for _, n := range c.EvalEnvs() {
		out = append(out, evalTarget{name: n.Name, env: n.Env, newEnv: envFactory(ctx, reg, n.Env, made)})
	}
	return out
}

// mixEnv is one slot's env of a mixture: an env of every entry, the one
// pickEnv draws from Reset's seed playing the episode.
type mixEnv struct {
	envs  []envs.Env
	names []string
	cum   []float64
	cur   int // the entry of the current episode
}

var (
	_ envs.Env                 = (*mixEnv)(nil)
	_ envs.ActionSampler       = (*mixEnv)(nil)
	_ envs.FormatErrorRewarder = (*mixEnv)(nil)
)

// mixFactory makes mixEnvs of the config's mixture.
func mixFactory(ctx context.Context, reg *envs.Registry, c Config, made *atomic.Uint64) func() (envs.Env, error) {
	makers := make([]func() (envs.Env, error), len(c.Env.Mix))
	for i, m := range c.Env.Mix {
		makers[i] = envFactory(ctx, reg, c.mixEnvConfig(m), made)
	}
	cum := cumulative(c.Env.Mix)
	names := c.MixNames()
	return func() (envs.Env, error) {
		m := &mixEnv{cum: cum, names: names}
		for i, mk := range makers {
			e, err := mk()
			if err != nil {
				_ = m.Close()
				return nil, fmt.Errorf("env.mix[%d] (%s): %w", i, names[i], err)
			}
			m.envs = append(m.envs, e)
		}
		return m, nil
	}
}

// Reset starts the episode of seed on the entry pickEnv draws for it.
func (m *mixEnv) Reset(seed uint64) (string, envs.Info, error) {
	m.cur = pickEnv(m.cum, seed)
	return m.envs[m.cur].Reset(seed)
}

// Step steps the current episode's env.
func (m *mixEnv) Step(action string) (envs.Step, error) { return m.envs[m.cur].Step(action) }

// SampleAction draws a random action of the current episode's env.
func (m *mixEnv) SampleAction(r *rand.Rand) string {
	if s, ok := envs.SamplerOf(m.envs[m.cur]); ok {
		return s.SampleAction(r)
	}
	return ""
}

// FormatErrorReward is the current episode's env's.
func (m *mixEnv) FormatErrorReward() float64 {
	if fr, ok := m.envs[m.cur].(envs.FormatErrorRewarder); ok {
		return fr.FormatErrorReward()
	}
	return envs.RewardFormatError
}

// Close closes every entry's env.
func (m *mixEnv) Close() error {
	var first error
	for _, e := range m.envs {
		if err := envs.Close(e); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// current is the entry of the episode last reset.
func (m *mixEnv) current() int { return m.cur }

// covered checks that random play of the mixture began an episode of
// every entry (met counts them); nil on a nil mixEnv (one env).
func (m *mixEnv) covered(met []int) error {
	if m == nil {
		return nil
	}
	total := 0
	for _, n := range met {
		total += n
	}
	for i, n := range met {
		if n == 0 {
			return fmt.Errorf("random play of the mixture met no episode of env.mix[%d] (%s) in %d episodes, so its text would be missing: raise its weight, tokenizer.corpus_episodes or warmup.steps", i, m.names[i], total)
		}
	}
	return nil
}
