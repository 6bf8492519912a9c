package train

import (
	"fmt"
	"math"
	"strings"
)

// Config is a whole training run. Zero values are not defaults: start from
// DefaultConfig and decode YAML over it.
type Config struct {
	Name       string           `yaml:"name"`       // run name, used for the run directory
	Seed       uint64           `yaml:"seed"`       // seeds every RNG of the run
	Iterations int              `yaml:"iterations"` // rollout + update rounds
	Env        EnvConfig        `yaml:"env"`
	Model      ModelConfig      `yaml:"model"`
	Tokenizer  TokenizerConfig  `yaml:"tokenizer"`
	Warmup     WarmupConfig     `yaml:"warmup"`
	Algo       AlgoConfig       `yaml:"algo"`
	Loss       LossConfig       `yaml:"loss"`
	Optim      OptimConfig      `yaml:"optim"`
	Sample     SampleConfig     `yaml:"sample"`
	Rollout    RolloutConfig    `yaml:"rollout"`
	Eval       EvalConfig       `yaml:"eval"`
	Checkpoint CheckpointConfig `yaml:"checkpoint"`
}

// EnvConfig says which env to train on and how the policy sees it.
type EnvConfig struct {
	ID          string         `yaml:"id"`           // registered env id, e.g. game:GuessTheNumber-v0-easy
	Options     map[string]any `yaml:"options"`      // env constructor options, e.g. {style: brief}
	History     string         `yaml:"history"`      // "none", "observations" or "actions": what earlier turns the policy sees
	HistoryKeep int            `yaml:"history_keep"` // keep only the last N turns of history; 0 keeps all
	NumEnvs     int            `yaml:"num_envs"`     // env slots played at once (one batched policy call per tick)
}

// ModelConfig is the transformer's shape (the vocabulary comes from the tokenizer).
type ModelConfig struct {
	Layers  int `yaml:"layers"`
	DModel  int `yaml:"d_model"`
	Heads   int `yaml:"heads"`
	Context int `yaml:"context"` // longest prompt + response, in tokens
}

// TokenizerConfig says how the vocabulary is built from env text.
type TokenizerConfig struct {
	MaxVocab       int `yaml:"max_vocab"`       // word pieces kept (plus specials and 256 bytes)
	CorpusEpisodes int `yaml:"corpus_episodes"` // random episodes whose text builds the vocabulary
}

// WarmupConfig is the supervised format warm-up before RL.
type WarmupConfig struct {
	Steps     int     `yaml:"steps"`      // optimizer steps; 0 skips the warm-up
	BatchSize int     `yaml:"batch_size"` // (observation, action) pairs per step
	LR        float64 `yaml:"lr"`         // learning rate of the warm-up
	// Transcript trains on the whole text (observation, SEP, action) rather
	// than the action alone: the model learns to read the observations, as a
	// pretrained model has, not only the action format.
	Transcript bool `yaml:"transcript"`
}

// AlgoConfig selects and configures the RL algorithm.
type AlgoConfig struct {
	Name          string  `yaml:"name"`           // reinforce, rebn, grpo, dr-grpo, rloo or ppo
	Gamma         float64 `yaml:"gamma"`          // discount over turns (reinforce, rebn, ppo)
	Lambda        float64 `yaml:"lambda"`         // GAE λ (ppo)
	Epochs        int     `yaml:"epochs"`         // passes over each batch
	MinibatchSize int     `yaml:"minibatch_size"` // transitions per optimizer step; 0: whole batch
	Whiten        bool    `yaml:"whiten"`         // normalise PPO advantages over the batch
	ValueClip     float64 `yaml:"value_clip"`     // PPO value clipping range; 0: off
	CriticLR      float64 `yaml:"critic_lr"`      // PPO critic learning rate; 0: optim.lr
}

// LossConfig is the shared clipped-surrogate loss.
type LossConfig struct {
	ClipEps      float64 `yaml:"clip_eps"`       // ε of the clipped ratio
	EntropyCoef  float64 `yaml:"entropy_coef"`   // entropy bonus weight
	KLCoef       float64 `yaml:"kl_coef"`        // KL penalty to the reference policy (the post-warm-up policy)
	KLResetEvery int     `yaml:"kl_reset_every"` // iterations between moves of the reference to the current policy; 0: never
	Agg          string  `yaml:"agg"`            // token-mean, seq-mean-token-sum, seq-mean-token-mean, seq-mean-token-sum-norm
}

// OptimConfig is Adam with clipping and a warm-up/cosine schedule.
type OptimConfig struct {
	LR          float64 `yaml:"lr"`
	MaxGradNorm float64 `yaml:"max_grad_norm"` // 0: no clipping
	WarmupSteps int     `yaml:"warmup_steps"`  // linear LR warm-up, in optimizer steps
	Cosine      bool    `yaml:"cosine"`        // decay to min_lr_frac·lr over the run
	MinLRFrac   float64 `yaml:"min_lr_frac"`
	WeightDecay float64 `yaml:"weight_decay"`
}

// SampleConfig is how actions are sampled during rollouts.
type SampleConfig struct {
	Temperature  float64 `yaml:"temperature"`
	TopP         float64 `yaml:"top_p"`          // 0 or 1: off
	MaxNewTokens int     `yaml:"max_new_tokens"` // response length limit
	RequireEOS   bool    `yaml:"require_eos"`    // a response that does not end within max_new_tokens is sent as "" (a format error)
}

// RolloutConfig sizes each iteration's batch.
type RolloutConfig struct {
	Episodes  int `yaml:"episodes"`   // finished episodes per iteration (or 0 with steps)
	Steps     int `yaml:"steps"`      // env steps per iteration (or 0 with episodes)
	GroupSize int `yaml:"group_size"` // episodes per seed (GRPO's K); 1 otherwise
}

// EvalConfig is the periodic greedy evaluation on held-out seeds.
type EvalConfig struct {
	Every    int    `yaml:"every"`     // iterations between evaluations; 0: only at the end
	Episodes int    `yaml:"episodes"`  // held-out episodes (seeds seed_base … seed_base+episodes−1)
	SeedBase uint64 `yaml:"seed_base"` // first held-out seed; training seeds never collide with these
}

// CheckpointConfig says when checkpoints are written.
type CheckpointConfig struct {
	Every int `yaml:"every"` // iterations between checkpoints; 0: only at the end
}

// DefaultConfig is ReBN on GuessTheNumber-easy with a tiny transformer.
func DefaultConfig() Config {
	return Config{
		Name:       "run",
		Seed:       1,
		Iterations: 100,
		Env: EnvConfig{
			ID:      "game:GuessTheNumber-v0-easy",
			Options: map[string]any{"style": "brief"},
			History: "observations",
			NumEnvs: 64,
		},
		Model:      ModelConfig{Layers: 2, DModel: 64, Heads: 4, Context: 128},
		Tokenizer:  TokenizerConfig{MaxVocab: 256, CorpusEpisodes: 300},
		Warmup:     WarmupConfig{Steps: 300, BatchSize: 64, LR: 3e-3},
		Algo:       AlgoConfig{Name: "rebn", Gamma: 0.9, Lambda: 0.95, Epochs: 2, MinibatchSize: 128},
		Loss:       LossConfig{ClipEps: 0.2, Agg: "token-mean"},
		Optim:      OptimConfig{LR: 1e-3, MaxGradNorm: 1},
		Sample:     SampleConfig{Temperature: 1, MaxNewTokens: 8, RequireEOS: true},
		Rollout:    RolloutConfig{Episodes: 128, GroupSize: 1},
		Eval:       EvalConfig{Every: 10, Episodes: 200, SeedBase: 1 << 40},
		Checkpoint: CheckpointConfig{Every: 25},
	}
}

// Algorithms are the valid algo.name values.
var Algorithms = []string{"reinforce", "rebn", "grpo", "dr-grpo", "rloo", "ppo"}

// Validate checks every field, naming it and its allowed range.
func (c *Config) Validate() error {
	var errs []string
	bad := func(format string, args ...any) { errs = append(errs, fmt.Sprintf(format, args...)) }
	finite := func(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }
	if c.Name == "" || strings.ContainsAny(c.Name, `/\`) {
		bad("name = %q: must be non-empty with no path separators", c.Name)
	}
	if c.Iterations < 1 {
		bad("iterations = %d: must be ≥ 1", c.Iterations)
	}
	if c.Env.ID == "" {
		bad("env.id is empty: name a registered env, e.g. game:GuessTheNumber-v0-easy (go run ./cmd/play -list prints them)")
	}
	switch c.Env.History {
	case "none", "observations", "actions":
	default:
		bad("env.history = %q: allowed none, observations, actions", c.Env.History)
	}
	if c.Env.HistoryKeep < 0 {
		bad("env.history_keep = %d: must be ≥ 0 (0 keeps all)", c.Env.HistoryKeep)
	}
	if c.Env.NumEnvs < 1 || c.Env.NumEnvs > 4096 {
		bad("env.num_envs = %d: allowed [1, 4096]", c.Env.NumEnvs)
	}
	if c.Tokenizer.MaxVocab < 0 || c.Tokenizer.MaxVocab > 65536 {
		bad("tokenizer.max_vocab = %d: allowed [0, 65536]", c.Tokenizer.MaxVocab)
	}
	if c.Tokenizer.CorpusEpisodes < 1 {
		bad("tokenizer.corpus_episodes = %d: must be ≥ 1", c.Tokenizer.CorpusEpisodes)
	}
	if c.Warmup.Steps < 0 {
		bad("warmup.steps = %d: must be ≥ 0", c.Warmup.Steps)
	}
	if c.Warmup.Steps > 0 && (c.Warmup.BatchSize < 1 || !(c.Warmup.LR > 0) || !finite(c.Warmup.LR)) {
		bad("warmup: batch_size = %d and lr = %v: need batch_size ≥ 1 and lr > 0", c.Warmup.BatchSize, c.Warmup.LR)
	}
	known := false
	for _, a := range Algorithms {
		known = known || c.Algo.Name == a
	}
	if !known {
		bad("algo.name = %q: allowed %s", c.Algo.Name, strings.Join(Algorithms, ", "))
	}
	if !(c.Algo.Gamma >= 0 && c.Algo.Gamma <= 1) {
		bad("algo.gamma = %v: allowed [0, 1]", c.Algo.Gamma)
	}
	if !(c.Algo.Lambda >= 0 && c.Algo.Lambda <= 1) {
		bad("algo.lambda = %v: allowed [0, 1]", c.Algo.Lambda)
	}
	if c.Algo.Epochs < 1 || c.Algo.Epochs > 100 {
		bad("algo.epochs = %d: allowed [1, 100]", c.Algo.Epochs)
	}
	if c.Algo.MinibatchSize < 0 {
		bad("algo.minibatch_size = %d: must be ≥ 0 (0: the whole batch)", c.Algo.MinibatchSize)
	}
	if !(c.Algo.ValueClip >= 0) || !(c.Algo.CriticLR >= 0) {
		bad("algo.value_clip = %v, algo.critic_lr = %v: must be ≥ 0", c.Algo.ValueClip, c.Algo.CriticLR)
	}
	if !(c.Sample.Temperature > 0) || !finite(c.Sample.Temperature) {
		bad("sample.temperature = %v: must be > 0", c.Sample.Temperature)
	}
	if !(c.Sample.TopP >= 0 && c.Sample.TopP <= 1) {
		bad("sample.top_p = %v: allowed [0, 1] (0 or 1: off)", c.Sample.TopP)
	}
	if c.Sample.MaxNewTokens < 1 || c.Sample.MaxNewTokens >= c.Model.Context {
		bad("sample.max_new_tokens = %d: allowed [1, model.context − 1 = %d]", c.Sample.MaxNewTokens, c.Model.Context-1)
	}
	if (c.Rollout.Episodes > 0) == (c.Rollout.Steps > 0) {
		bad("rollout: set exactly one of episodes (%d) and steps (%d)", c.Rollout.Episodes, c.Rollout.Steps)
	}
	if c.Rollout.Episodes < 0 || c.Rollout.Steps < 0 {
		bad("rollout.episodes and rollout.steps must be ≥ 0")
	}
	if c.Rollout.GroupSize < 1 || c.Rollout.GroupSize > 1024 {
		bad("rollout.group_size = %d: allowed [1, 1024]", c.Rollout.GroupSize)
	}
	if isGroupAlgo(c.Algo.Name) && c.Rollout.GroupSize < 2 {
		bad("rollout.group_size = %d: %s compares episodes within a group, so it needs at least 2", c.Rollout.GroupSize, c.Algo.Name)
	}
	if c.Eval.Every < 0 || c.Eval.Episodes < 0 {
		bad("eval.every = %d, eval.episodes = %d: must be ≥ 0", c.Eval.Every, c.Eval.Episodes)
	}
	if c.Loss.KLResetEvery < 0 {
		bad("loss.kl_reset_every = %d: must be ≥ 0 (0: the reference stays the post-warm-up policy)", c.Loss.KLResetEvery)
	}
	if c.Loss.KLResetEvery > 0 && !(c.Loss.KLCoef > 0) {
		bad("loss.kl_reset_every = %d moves the reference of the KL penalty, but loss.kl_coef = %v: set kl_coef > 0 or kl_reset_every = 0", c.Loss.KLResetEvery, c.Loss.KLCoef)
	}
	if c.Checkpoint.Every < 0 {
		bad("checkpoint.every = %d: must be ≥ 0", c.Checkpoint.Every)
	}
	if len(errs) > 0 {
		return fmt.Errorf("invalid config:\n  %s", strings.Join(errs, "\n  "))
	}
	if err := c.policyConfig(0).validateShape(); err != nil {
		return err
	}
	if err := c.lossConfig().Validate(); err != nil {
		return err
	}
	return c.optimConfig(c.Optim.LR, 1).Validate()
}

func isGroupAlgo(name string) bool { return name == "grpo" || name == "dr-grpo" || name == "rloo" }
