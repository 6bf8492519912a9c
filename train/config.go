package train

import (
	"fmt"
	"maps"
	"math"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/gemgo/gemgo/algo"
	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/remote/client"
	"github.com/gemgo/gemgo/policy"
	"github.com/gemgo/gemgo/tools"
)

// Config is a whole training run. Zero values are not defaults: start from
// DefaultConfig and decode YAML over it.
type Config struct {
	Name       string           `yaml:"name"`       // run name, used for the run directory
	Seed       uint64           `yaml:"seed"`       // seeds every RNG of the run
	Iterations int              `yaml:"iterations"` // rollout + update rounds
	Env        EnvConfig        `yaml:"env"`
	Model      policy.Config    `yaml:"model"` // the transformer's shape (the vocabulary comes from the tokenizer)
	Tokenizer  TokenizerConfig  `yaml:"tokenizer"`
	Warmup     WarmupConfig     `yaml:"warmup"`
	Algo       algo.Config      `yaml:"algo"`
	Loss       LossConfig       `yaml:"loss"`
	Optim      OptimConfig      `yaml:"optim"`
	Sample     SampleConfig     `yaml:"sample"`
	Rollout    RolloutConfig    `yaml:"rollout"`
	Eval       EvalConfig       `yaml:"eval"`
	Checkpoint CheckpointConfig `yaml:"checkpoint"`
}

// EnvConfig says which env to train on and how the policy sees it.
type EnvConfig struct {
	ID string `yaml:"id"` // registered env id, e.g. game:GuessTheNumber-v0-easy; "" with mix
	// Mix trains on several envs at once instead of ID (exactly one of
	// the two is set): each episode plays one entry, drawn by weight from
	// an RNG seeded with the episode's seed (mixEnv). The other keys of
	// env (remote, tools, history_keep, num_envs; history as the entries'
	// default) apply to every entry; options belong to each entry.
	Mix         []MixEntry   `yaml:"mix,omitempty"`
	Options     EnvOptions   `yaml:"options"`         // env constructor options, e.g. {style: brief}; a file's options replace the base's
	History     string       `yaml:"history"`         // "none", "observations" or "actions": what earlier turns the policy sees
	HistoryKeep int          `yaml:"history_keep"`    // keep only the last N turns of history; 0 keeps all
	NumEnvs     int          `yaml:"num_envs"`        // env slots played at once (one batched policy call per tick)
	Remote      Remotes      `yaml:"remote"`          // env server address (ws://host:port of cmd/envserver), or a list of them that the envs are spread over; none plays the env in-process
	Tools       []tools.Spec `yaml:"tools,omitempty"` // tools the env is wrapped with, e.g. [{name: python, max_uses: 5}] (docs/tools.md)
}

// MixEntry is one env of a mixture (env.mix).
type MixEntry struct {
	ID      string     `yaml:"id"`                // registered env id
	Name    string     `yaml:"name,omitempty"`    // the env's name in metrics and reports; "" means the id
	Weight  float64    `yaml:"weight"`            // relative share of the episodes, > 0
	Options EnvOptions `yaml:"options,omitempty"` // the env's constructor options
	History string     `yaml:"history,omitempty"` // what earlier turns the policy sees; "" means env.history
}

// EvalEnvConfig is one env of the evaluation during training (eval.envs).
type EvalEnvConfig struct {
	ID      string     `yaml:"id"`                // registered env id
	Name    string     `yaml:"name,omitempty"`    // the env's name in metrics and reports; "" means the id
	Options EnvOptions `yaml:"options,omitempty"` // the env's constructor options
	History string     `yaml:"history,omitempty"` // "" means env.history
}

// EnvOptions are an env's constructor options. Decoding replaces them as a
// whole: a file's env.options are not merged into its base's, whose keys
// may not exist for another env.
type EnvOptions map[string]any

// UnmarshalYAML decodes the options into a fresh map; none ({}) is nil,
// as an absent key leaves them, so the two mean one config.
func (o *EnvOptions) UnmarshalYAML(n *yaml.Node) error {
	m := map[string]any{}
	if err := n.Decode(&m); err != nil {
		return err
	}
	*o = m
	if len(m) == 0 {
		*o = nil
	}
	return nil
}

// Remotes are env server addresses. In YAML one is a string (remote:
// ws://127.0.0.1:8000) and several a list (remote: [ws://a:8000,
// ws://b:8000]); the run's envs are made on them in turn (envFactory),
// so its slots are spread evenly, the same way on every run. A balancer
// in front of replicas is one address.
type Remotes []string

// UnmarshalYAML decodes one address or a list of them; "" is none.
func (r *Remotes) UnmarshalYAML(n *yaml.Node) error {
	switch n.Kind {
	case yaml.ScalarNode:
		var s string
		if err := n.Decode(&s); err != nil {
			return err
		}
		*r = nil
		if s != "" {
			*r = Remotes{s}
		}
		return nil
	case yaml.SequenceNode:
		var list []string
		if err := n.Decode(&list); err != nil {
			return err
		}
		*r = list
		return nil
	}
	return fmt.Errorf("line %d: env.remote: want an env server address (ws://host:port) or a list of them", n.Line)
}

// MarshalYAML writes none as "", one address as a string and several as
// a list, as they are read.
func (r Remotes) MarshalYAML() (any, error) {
	switch len(r) {
	case 0:
		return "", nil
	case 1:
		return r[0], nil
	}
	return []string(r), nil
}

// TokenizerConfig says how the vocabulary is built from env text.
type TokenizerConfig struct {
	MaxVocab       int `yaml:"max_vocab"`       // word pieces kept (plus specials and 256 bytes)
	CorpusEpisodes int `yaml:"corpus_episodes"` // random episodes whose text builds the vocabulary
	// Digits is the most digits one token may hold: 1 (the default; 0 is
	// the same) makes every digit a token; 2 lets "42" be one token, so a number up to 99 is
	// one choice of the policy (GPT-4's tokenizer groups up to 3).
	Digits int `yaml:"digits"`
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
	// AfterToolWeight draws a pair whose observation is a tool's result
	// (tool-wrapped envs) this many times as often as random play meets it;
	// 0 or 1: as met. The actions for an observation stay SampleAction's.
	AfterToolWeight int `yaml:"after_tool_weight"`
	// OffState is the share of random play's turns that play, instead of
	// SampleAction's action for the state, one it drew for another
	// episode's state: with an informed sampler (Sudoku's legal digits,
	// Game2048's moves that change the board), the warm-up then also sees
	// the feedback to illegal moves, which the policy meets as soon as it
	// plays, and learns to answer it (the off-state actions themselves are
	// not imitated). 0: none.
	OffState float64 `yaml:"off_state,omitempty"`
	// Repeat is the share of random play's turns (after an episode's
	// first) that play the episode's previous action again instead of
	// SampleAction's, not imitated either: the warm-up then sees the env's
	// answer to a repeated move (Wordle's and Hangman's "already guessed"
	// refusal), which an informed sampler never plays but a small policy
	// does, and learns to play on after it. 0: none.
	Repeat float64 `yaml:"repeat,omitempty"`
	// Pool is how many (observation, action) pairs random play collects up
	// front, the pool the steps draw from; 0: min(steps × batch_size,
	// 20,000). A pool as large as steps × batch_size gives every step
	// fresh pairs: with a sampler whose action for a state is one draw of
	// many (Hangman's sample: consistent), a small pool repeated for many
	// epochs teaches the model its draws rather than their distribution.
	Pool int `yaml:"pool,omitempty"`
	// From starts RL from a saved policy instead: a checkpoint file (a
	// run's reference.safetensors is its warmed-up policy) whose tokenizer
	// and weights the run takes, skipping the vocabulary and the warm-up
	// (the other warmup keys are then unused). The model keys must give
	// the checkpoint's shape. Runs that share one warm-up compare what
	// comes after it, and skip its minutes.
	From string `yaml:"from,omitempty"`
	// Options are env options for the warm-up's random play only, each
	// replacing env.options' value of its key: a teacher for the warm-up
	// to imitate (a sample option, e.g. Game2048's sample: corner) while
	// the env that RL trains on, the evaluation and the random-play
	// baseline keep env.options. Not with env.mix (give each entry its
	// options).
	Options EnvOptions `yaml:"options,omitempty"`
}

// LossConfig is algo's loss plus when the KL penalty's reference moves.
type LossConfig struct {
	algo.LossConfig `yaml:",inline"`
	KLResetEvery    int `yaml:"kl_reset_every"` // iterations between moves of the reference to the current policy; 0: never
}

// OptimConfig is policy's Adam plus the switch for a cosine decay of the
// learning rate. With cosine, the rate follows the iteration: iteration i
// of iterations trains at the cosine's value at i/iterations, so the
// decay reaches min_lr_frac·lr at the last iteration whatever the steps
// an iteration makes; without it the rate stays at lr after the warm-up.
type OptimConfig struct {
	policy.OptimConfig `yaml:",inline"`
	Cosine             bool `yaml:"cosine"` // decay to min_lr_frac·lr by the last iteration
}

// SampleConfig is policy's sampling during rollouts, plus what happens to
// a response that does not end.
type SampleConfig struct {
	policy.SampleConfig `yaml:",inline"`
	RequireEOS          bool `yaml:"require_eos"` // a response that does not end within max_new_tokens is sent as "" (a format error)
}

// RolloutConfig sizes each iteration's batch.
type RolloutConfig struct {
	Episodes  int `yaml:"episodes"`   // finished episodes per iteration (or 0 with steps)
	Steps     int `yaml:"steps"`      // env steps per iteration (or 0 with episodes)
	GroupSize int `yaml:"group_size"` // episodes per seed (GRPO's K); 1 otherwise
	// FilterGroups is DAPO's dynamic sampling (Yu et al. 2025): train
	// only on groups whose episodes' returns differ, playing further
	// batches of new seeds until episodes/group_size such groups are kept
	// (group algorithms, an episode budget).
	FilterGroups  bool `yaml:"filter_groups"`
	MaxGenBatches int  `yaml:"max_gen_batches"` // batches played at most per iteration with filter_groups; 0 means 10
	// RandomStart is exploring starts (envs.RandomStart): the share of
	// training episodes that begin after 1..RandomStartTurns random actions
	// (the env's SampleAction), so that states deep in a game are visited
	// and trained; 0 starts every episode at the beginning. Evaluation
	// always starts at the beginning.
	RandomStart      float64 `yaml:"random_start"`
	RandomStartTurns int     `yaml:"random_start_turns"` // most random actions before the agent's first; needed with random_start
}

// EvalConfig is the periodic greedy evaluation on held-out seeds.
type EvalConfig struct {
	Every    int    `yaml:"every"`     // iterations between evaluations; 0: only at the end
	Episodes int    `yaml:"episodes"`  // held-out episodes (seeds seed_base … seed_base+episodes−1)
	SeedBase uint64 `yaml:"seed_base"` // first held-out seed; training seeds never collide with these
	// Options are env options for the evaluation only, each replacing
	// env.options' value of its key, e.g. {split: test} to evaluate on
	// questions no training episode asks (qa:Fictional-*).
	Options EnvOptions `yaml:"options,omitempty"`
	// Envs evaluates these envs instead of the training env(s), each on
	// the same held-out seeds, recording each env's greedy and sampled
	// success under its name (eval/success_rate/NAME, ...); the
	// unsuffixed eval/ metrics are then the mean over the envs. Without
	// it, a mixture evaluates each of its entries (eval.options over
	// each entry's options) in the same way.
	Envs []EvalEnvConfig `yaml:"envs,omitempty"`
}

// Cautions are settings that run but are known to train something other
// than they seem to, each with what happens and what to do; cmd/train
// and compare.Execute (cmd/compare, cmd/baselines) print them before the
// runs start.
func (c Config) Cautions() []string {
	var out []string
	if p := c.Sample.TopP; p > 0 && p < 1 {
		out = append(out, fmt.Sprintf("sample.top_p = %v: the rollouts sample the nucleus, but the update trains the "+
			"whole tempered softmax (log-probs are taken before top-p's cut, as in verl), so tokens outside the nucleus "+
			"are never sampled and never corrected: the gradient is biased. Leave it at 0 (off) for training, and lower "+
			"sample.temperature instead if the rollouts should keep closer to the most likely tokens; nucleus sampling "+
			"belongs in cmd/eval", p))
	}
	return out
}

// lossConfig is the update's loss: the loss section at the sampling
// temperature, so that the policy trained is the one the rollouts sample,
// with loss.norm_len 0 meaning model.context.
func (c Config) lossConfig() algo.LossConfig {
	lc := c.Loss.LossConfig
	lc.Temperature = c.Sample.Temperature
	if lc.NormLen == 0 {
		lc.NormLen = c.Model.Context
	}
	return lc
}

// EvalEnv is the env config of the held-out evaluation: env with
// eval.options over env.options. For a mixture it is its first entry's
// (the env a checkpoint is served with; DiagnoseEach plays every entry);
// EvalEnvs lists every env the evaluation plays.
func (c Config) EvalEnv() EnvConfig {
	ec := c.Env
	if len(c.Env.Mix) > 0 {
		ec = c.mixEnvConfig(c.Env.Mix[0])
	}
	ec.Mix = nil
	ec.Options = ec.Options.over(c.Eval.Options)
	return ec
}

// WarmupEnv is the env the warm-up's random play runs on: env.id's, with
// warmup.options over env.options.
func (c Config) WarmupEnv() EnvConfig {
	ec := c.Env
	ec.Options = ec.Options.over(c.Warmup.Options)
	return ec
}

// over returns o with each of top's options replacing o's value of its
// key: a fresh map, o itself when top is empty.
func (o EnvOptions) over(top EnvOptions) EnvOptions {
	if len(top) == 0 {
		return o
	}
	m := make(EnvOptions, len(o)+len(top))
	maps.Copy(m, o)
	maps.Copy(m, top)
	return m
}

// CheckpointConfig says when checkpoints are written.
type CheckpointConfig struct {
	Every int `yaml:"every"` // iterations between checkpoints; 0: only at the end
}

// DefaultConfig is the whole-history recipe (configs/rebn_guess_obs.yaml
// says why each setting was chosen; it was the main job until commit
// b9789c8): ReBN on GuessTheNumber-easy with every earlier hint in the
// prompt, a 2-layer d = 64 transformer, a transcript warm-up, a light KL
// anchor and a cosine learning-rate decay. Every config file is decoded
// over it; the main job, configs/rebn_guess.yaml, overrides the history,
// the model, γ, the KL weight and the learning rate.
func DefaultConfig() Config {
	return Config{
		Name:       "run",
		Seed:       1,
		Iterations: 800,
		Env: EnvConfig{
			ID:      "game:GuessTheNumber-v0-easy",
			Options: EnvOptions{"style": "brief", "partial_credit": false},
			History: envs.HistoryObservations,
			NumEnvs: 64,
		},
		Model:     policy.Config{Context: 128, Layers: 2, DModel: 64, Heads: 4},
		Tokenizer: TokenizerConfig{MaxVocab: 256, CorpusEpisodes: 300, Digits: 1},
		Warmup:    WarmupConfig{Steps: 200, BatchSize: 32, LR: 3e-3, Transcript: true},
		Algo:      algo.Config{Name: "rebn", Gamma: 0.9, Lambda: 0.95, Epochs: 2, MinibatchSize: 64},
		Loss:      LossConfig{LossConfig: algo.LossConfig{Kind: algo.Clip, ClipEps: 0.2, KLCoef: 0.01, Agg: algo.TokenMean}},
		Optim: OptimConfig{OptimConfig: policy.OptimConfig{LR: 1e-3, Beta1: 0.9, Beta2: 0.999, Eps: 1e-8, MaxGradNorm: 1, MinLRFrac: 0.1},
			Cosine: true},
		Sample:     SampleConfig{SampleConfig: policy.SampleConfig{Temperature: 1, MaxNewTokens: 8}, RequireEOS: true},
		Rollout:    RolloutConfig{Episodes: 64, GroupSize: 1},
		Eval:       EvalConfig{Every: 20, Episodes: 200, SeedBase: 1 << 40},
		Checkpoint: CheckpointConfig{Every: 25},
	}
}

// Validate checks every field, naming its key and the allowed range. The
// model, algorithm, loss, optimizer and sampling sections are checked by
// the packages that own them; the checks across sections are here.
// maxEpisodes bounds the episodes that one piece of a run holds in memory
// at once: an iteration's rollout (rollout.episodes), an evaluation
// (eval.episodes) and the tokenizer's corpus (tokenizer.corpus_episodes).
// The shipped configs use at most 128, 200 and 300; 100,000 is some 500
// times that, and keeps the text and tokens of short multi-turn episodes
// (a few kB each) within a few hundred MB. maxRolloutSteps is the same
// bound for rollout.steps, at ten steps an episode.
const (
	maxEpisodes     = 100_000
	maxRolloutSteps = 10 * maxEpisodes
	maxWarmupPool   = 10 * maxEpisodes // warmup.pool's (observation, action) pairs
)

func (c *Config) Validate() error {
	var errs []string
	bad := func(format string, args ...any) { errs = append(errs, fmt.Sprintf(format, args...)) }
	owned := func(err error) {
		if err != nil {
			errs = append(errs, err.Error())
		}
	}
	finite := func(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }
	if c.Name == "" || strings.ContainsAny(c.Name, `/\`) {
		bad("name = %q: must be non-empty with no path separators", c.Name)
	}
	if c.Iterations < 1 {
		bad("iterations = %d: must be ≥ 1", c.Iterations)
	}
	switch {
	case c.Env.ID == "" && len(c.Env.Mix) == 0:
		bad("env.id is empty: name a registered env, e.g. game:GuessTheNumber-v0-easy (go run ./cmd/play -list prints them), or list several in env.mix")
	case c.Env.ID != "" && len(c.Env.Mix) > 0:
		bad("env.id = %q and env.mix (%d entries) are both set: set exactly one (env.id trains on one env, env.mix on several)", c.Env.ID, len(c.Env.Mix))
	}
	errs = append(errs, c.validateMix()...)
	switch c.Env.History {
	case envs.HistoryNone, envs.HistoryObservations, envs.HistoryActions:
	default:
		bad("env.history = %q: allowed none, observations, actions", c.Env.History)
	}
	for i, u := range c.Env.Remote {
		if err := client.ValidateURL(u); err != nil {
			if len(c.Env.Remote) == 1 {
				bad("env.remote = %q: %v", u, err)
			} else {
				bad("env.remote (address %d of %d) = %q: %v", i+1, len(c.Env.Remote), u, err)
			}
		}
	}
	if c.Env.HistoryKeep < 0 {
		bad("env.history_keep = %d: must be ≥ 0 (0 keeps all)", c.Env.HistoryKeep)
	}
	if c.Env.NumEnvs < 1 || c.Env.NumEnvs > 4096 {
		bad("env.num_envs = %d: allowed [1, 4096]", c.Env.NumEnvs)
	}
	owned(tools.ValidateSpecs(c.Env.Tools))
	owned(c.shape().Validate())
	if c.Tokenizer.MaxVocab < 0 || c.Tokenizer.MaxVocab > 65536 {
		bad("tokenizer.max_vocab = %d: allowed [0, 65536]", c.Tokenizer.MaxVocab)
	}
	if c.Tokenizer.Digits < 0 || c.Tokenizer.Digits > policy.MaxDigits {
		bad("tokenizer.digits = %d: allowed [0, %d] (0 or 1: every digit its own token)", c.Tokenizer.Digits, policy.MaxDigits)
	}
	if c.Tokenizer.CorpusEpisodes < 1 || c.Tokenizer.CorpusEpisodes > maxEpisodes {
		bad("tokenizer.corpus_episodes = %d: allowed [1, %d] (the corpus is held in memory)", c.Tokenizer.CorpusEpisodes, maxEpisodes)
	}
	if c.Warmup.Steps < 0 {
		bad("warmup.steps = %d: must be ≥ 0", c.Warmup.Steps)
	}
	// sample.max_new_tokens first: the warm-up's prompt length is
	// model.context minus it, and is checked only when it is in range
	newTokensOK := c.Sample.MaxNewTokens >= 1 && c.Sample.MaxNewTokens <= c.Model.Context-2
	if !newTokensOK {
		bad("sample.max_new_tokens = %d: allowed [1, model.context − 2 = %d] (the prompt needs room for BOS and SEP)", c.Sample.MaxNewTokens, c.Model.Context-2)
	}
	if c.Warmup.Steps > 0 {
		if c.Warmup.BatchSize < 1 {
			bad("warmup.batch_size = %d: a warm-up needs at least 1 (or warmup.steps = 0)", c.Warmup.BatchSize)
		} else if newTokensOK {
			owned(c.warmupConfig().Validate())
		}
		if c.Warmup.AfterToolWeight < 0 || c.Warmup.AfterToolWeight > 100 {
			bad("warmup.after_tool_weight = %d: allowed [0, 100] (0 or 1: pairs as random play meets them)", c.Warmup.AfterToolWeight)
		}
		if c.Warmup.Pool < 0 || c.Warmup.Pool > maxWarmupPool {
			bad("warmup.pool = %d: allowed [0, %d] (the pairs are held in memory; 0: min(steps × batch_size, 20,000))", c.Warmup.Pool, maxWarmupPool)
		}
		if !(c.Warmup.OffState >= 0 && c.Warmup.OffState <= 0.9) {
			bad("warmup.off_state = %v: allowed [0, 0.9] (the share of random play's turns that play another state's action)", c.Warmup.OffState)
		}
		if !(c.Warmup.Repeat >= 0 && c.Warmup.Repeat <= 0.9) {
			bad("warmup.repeat = %v: allowed [0, 0.9] (the share of random play's turns that play the episode's previous action again)", c.Warmup.Repeat)
		}
		if len(c.Warmup.Options) > 0 && len(c.Env.Mix) > 0 {
			bad("warmup.options with env.mix: the warm-up plays the mixture; set the options on its entries (env.mix[i].options)")
		}
		if !(c.Warmup.LR > 0) || !finite(c.Warmup.LR) {
			bad("warmup.lr = %v: a warm-up needs lr > 0 (or warmup.steps = 0)", c.Warmup.LR)
		}
	}
	owned(c.Algo.Validate())
	owned(c.Loss.LossConfig.Validate())
	if c.Loss.KLResetEvery < 0 {
		bad("loss.kl_reset_every = %d: must be ≥ 0 (0: the reference stays the post-warm-up policy)", c.Loss.KLResetEvery)
	}
	if c.Loss.KLResetEvery > 0 && !(c.Loss.KLCoef > 0) {
		bad("loss.kl_reset_every = %d moves the reference of the KL penalty, but loss.kl_coef = %v: set kl_coef > 0 or kl_reset_every = 0", c.Loss.KLResetEvery, c.Loss.KLCoef)
	}
	oc := c.optimConfig(c.Optim.LR)
	owned(oc.Validate())
	if newTokensOK {
		owned(c.Sample.SampleConfig.Validate(policyMaxVocab))
	} else {
		sc := c.Sample.SampleConfig
		sc.MaxNewTokens = 1 // reported above
		owned(sc.Validate(policyMaxVocab))
	}
	if (c.Rollout.Episodes > 0) == (c.Rollout.Steps > 0) {
		bad("rollout.episodes = %d, rollout.steps = %d: set exactly one of them (the other 0)", c.Rollout.Episodes, c.Rollout.Steps)
	}
	if c.Rollout.Episodes < 0 || c.Rollout.Steps < 0 {
		bad("rollout.episodes and rollout.steps must be ≥ 0")
	}
	if c.Rollout.Episodes > maxEpisodes {
		bad("rollout.episodes = %d: allowed [0, %d] (an iteration's episodes are held in memory)", c.Rollout.Episodes, maxEpisodes)
	}
	if c.Rollout.Steps > maxRolloutSteps {
		bad("rollout.steps = %d: allowed [0, %d] (an iteration's steps are held in memory)", c.Rollout.Steps, maxRolloutSteps)
	}
	if c.Rollout.GroupSize < 1 || c.Rollout.GroupSize > 1024 {
		bad("rollout.group_size = %d: allowed [1, 1024]", c.Rollout.GroupSize)
	}
	if c.Rollout.FilterGroups && (!c.Algo.UsesGroups() || c.Rollout.Episodes == 0) {
		bad("rollout.filter_groups = true: keeps the groups whose returns differ, so it needs a group algorithm (grpo, dr-grpo, rloo; got %s) and rollout.episodes (got %d)", c.Algo.Name, c.Rollout.Episodes)
	}
	if c.Rollout.MaxGenBatches < 0 || c.Rollout.MaxGenBatches > 1000 {
		bad("rollout.max_gen_batches = %d: allowed [0, 1000] (0 means %d)", c.Rollout.MaxGenBatches, defaultMaxGenBatches)
	}
	if !(c.Rollout.RandomStart >= 0 && c.Rollout.RandomStart <= 1) {
		bad("rollout.random_start = %v: allowed [0, 1] (the share of episodes that start after random turns)", c.Rollout.RandomStart)
	}
	if c.Rollout.RandomStart > 0 && (c.Rollout.RandomStartTurns < 1 || c.Rollout.RandomStartTurns > 1000) {
		bad("rollout.random_start_turns = %d: allowed [1, 1000] with rollout.random_start = %v (the most random turns before the agent's first)", c.Rollout.RandomStartTurns, c.Rollout.RandomStart)
	}
	if c.Algo.UsesGroups() && c.Rollout.GroupSize < 2 {
		bad("rollout.group_size = %d: algo.name = %s compares episodes within a group, so it needs at least 2", c.Rollout.GroupSize, c.Algo.Name)
	}
	if c.Eval.Every < 0 || c.Eval.Episodes < 0 {
		bad("eval.every = %d, eval.episodes = %d: must be ≥ 0", c.Eval.Every, c.Eval.Episodes)
	}
	if c.Eval.Episodes > maxEpisodes {
		bad("eval.episodes = %d: allowed [0, %d] (an evaluation's episodes are held in memory; cmd/eval plays larger sets)", c.Eval.Episodes, maxEpisodes)
	}
	errs = append(errs, c.validateEvalEnvs()...)
	if c.Checkpoint.Every < 0 {
		bad("checkpoint.every = %d: must be ≥ 0", c.Checkpoint.Every)
	}
	if len(errs) > 0 {
		return fmt.Errorf("invalid config:\n  %s", strings.Join(errs, "\n  "))
	}
	return nil
}
