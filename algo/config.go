package algo

import (
	"fmt"
	"math"
	"strings"
)

// Config is the algo section of a training config: which algorithm, and the
// settings of all of them (an algorithm ignores the ones it does not use).
// Zero values mean the defaults noted.
type Config struct {
	Name          string  `yaml:"name"`           // one of Names()
	Gamma         float64 `yaml:"gamma"`          // discount over turns, [0, 1] (reinforce, rebn, ppo)
	Lambda        float64 `yaml:"lambda"`         // GAE λ, [0, 1] (ppo)
	Epsilon       float64 `yaml:"epsilon"`        // added to the std of the returns; 0: rebn 1e-9, grpo 1e-6
	Epochs        int     `yaml:"epochs"`         // passes over each batch, [0, 100]; 0 means 1
	MinibatchSize int     `yaml:"minibatch_size"` // transitions per optimizer step; 0: the whole batch
	Pack          bool    `yaml:"pack"`           // train an episode's turns as one packed sequence where each prompt extends the one before (env.history)
	Whiten        bool    `yaml:"whiten"`         // normalise the advantages over the batch (ppo)
	ValueClip     float64 `yaml:"value_clip"`     // clip range of the value update; 0: off (ppo)
	CriticLR      float64 `yaml:"critic_lr"`      // the critic's learning rate; 0: the policy's (ppo)
}

// Deps is what an algorithm is built with besides its Config.
type Deps struct {
	Loss      LossConfig   // the shared loss (a training config's loss section)
	Reference Reference    // frozen policy of the KL penalty; nil: none (Loss.KLCoef must be 0)
	Critic    ValueLearner // the value network, for an algorithm whose Config.NeedsCritic
	PackRows  int          // with algo.pack: the longest packed sequence the learner takes (policy.MaxPackedLen); 0: no limit
}

// entry is one algorithm New can build.
type entry struct {
	name   string
	critic bool // trains a value network beside the policy
	groups bool // compares the episodes of a group played from one seed
	build  func(c Config, d Deps) Algorithm
}

// algorithms is every algorithm, in the order Names lists them. A new
// algorithm is one more entry here (and its file).
func algorithms() []entry {
	grpo := func(c Config, d Deps) Algorithm { return &GRPO{cfg: c, deps: d} }
	return []entry{
		{name: "reinforce", build: func(c Config, d Deps) Algorithm { return &REINFORCE{cfg: c, deps: d} }},
		{name: "rebn", build: func(c Config, d Deps) Algorithm { return &ReBN{cfg: c, deps: d} }},
		{name: VariantGRPO, groups: true, build: grpo},
		{name: VariantDrGRPO, groups: true, build: grpo},
		{name: VariantRLOO, groups: true, build: grpo},
		{name: "ppo", critic: true, build: func(c Config, d Deps) Algorithm { return &PPO{cfg: c, deps: d} }},
	}
}

func lookup(name string) (entry, bool) {
	for _, e := range algorithms() {
		if e.name == name {
			return e, true
		}
	}
	return entry{}, false
}

// Names lists the valid algo.name values.
func Names() []string {
	var names []string
	for _, e := range algorithms() {
		names = append(names, e.name)
	}
	return names
}

// NeedsCritic reports whether the algorithm trains a value network, which
// the trainer then builds and passes in Deps.Critic.
func (c Config) NeedsCritic() bool { e, _ := lookup(c.Name); return e.critic }

// UsesGroups reports whether the algorithm compares the episodes of a
// group played from one seed (so rollout.group_size must be at least 2).
func (c Config) UsesGroups() bool { e, _ := lookup(c.Name); return e.groups }

// Validate checks c on its own, naming the key and its allowed range.
func (c Config) Validate() error {
	var errs []string
	bad := func(format string, args ...any) { errs = append(errs, fmt.Sprintf(format, args...)) }
	nonNeg := func(f float64) bool { return f >= 0 && !math.IsInf(f, 0) }
	if _, ok := lookup(c.Name); !ok {
		bad("algo.name = %q: allowed %s", c.Name, strings.Join(Names(), ", "))
	}
	if !(c.Gamma >= 0 && c.Gamma <= 1) {
		bad("algo.gamma = %v: allowed [0, 1]", c.Gamma)
	}
	if !(c.Lambda >= 0 && c.Lambda <= 1) {
		bad("algo.lambda = %v: allowed [0, 1]", c.Lambda)
	}
	if !nonNeg(c.Epsilon) {
		bad("algo.epsilon = %v: must be finite and ≥ 0 (0: the algorithm's default)", c.Epsilon)
	}
	if c.Epochs < 0 || c.Epochs > 100 {
		bad("algo.epochs = %d: allowed [0, 100] (0 means 1)", c.Epochs)
	}
	if c.MinibatchSize < 0 {
		bad("algo.minibatch_size = %d: must be ≥ 0 (0 means the whole buffer)", c.MinibatchSize)
	}
	if !nonNeg(c.ValueClip) {
		bad("algo.value_clip = %v: must be finite and ≥ 0 (0: off)", c.ValueClip)
	}
	if !nonNeg(c.CriticLR) {
		bad("algo.critic_lr = %v: must be finite and ≥ 0 (0: the policy's optim.lr)", c.CriticLR)
	}
	if len(errs) > 0 {
		return fmt.Errorf("%s", strings.Join(errs, "\n  "))
	}
	return nil
}

// New builds the algorithm c names. It checks c, the loss, and that d
// holds what the algorithm needs (a critic; a reference when the loss has
// a KL penalty).
func New(c Config, d Deps) (Algorithm, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	if err := d.Loss.Validate(); err != nil {
		return nil, err
	}
	e, _ := lookup(c.Name)
	switch {
	case e.critic && d.Critic == nil:
		return nil, fmt.Errorf("algo.name = %s trains a critic: give one in Deps.Critic", c.Name)
	case d.Loss.KLCoef > 0 && d.Reference == nil:
		return nil, fmt.Errorf("loss.kl_coef = %v needs a reference policy (set it to 0, or give a reference)", d.Loss.KLCoef)
	}
	return e.build(c, d), nil
}
