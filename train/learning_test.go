package train_test

import (
	"context"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/algo"
	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/game/guessnumber"
	"github.com/gemgo/gemgo/policy"
	"github.com/gemgo/gemgo/stats"
	"github.com/gemgo/gemgo/train"
)

// The learning tests train a tiny policy with each algorithm through
// train.Run (warm-up, rollouts, updates, greedy evaluation) and check that
// its success rises clearly above the random policy's, on fixed seeds.
//
// Every run keeps the KL penalty to the post-warm-up policy (loss.kl_coef).
// Without it, these tiny models on a few hundred episodes drift to a
// context-free answer before they learn to read the context: every arm is
// right for one context and wrong for the others, so the direction "prefer
// arm a everywhere" has no expected gradient, and sampling noise, amplified
// by Adam's per-parameter normalisation, walks the policy along it until
// the entropy is gone. The penalty pins that flat direction to the
// warm-up's uniform choice while the rewarded direction still grows.

// learningAlgos are the algorithms every learning test covers.
var learningAlgos = []string{"reinforce", "rebn", "grpo", "ppo"}

// learningRegistry holds the two envs of the learning tests.
func learningRegistry(t *testing.T) *envs.Registry {
	reg := envs.NewRegistry()
	require.NoError(t, guessnumber.Register(reg))
	require.NoError(t, registerBandit(reg))
	return reg
}

// learnResult is what one learning run measured.
type learnResult struct {
	random  float64 // SampleAction play on the evaluation seeds
	warmup  float64 // greedy success of the warm-up-only policy (iteration 0)
	final   float64 // greedy success after training
	sampled []float64
}

// evalObserver records a run's evaluations and sampled success rates.
type evalObserver struct {
	evals   []train.EvalResult
	sampled []float64
}

func (o *evalObserver) Warmup(int, int, policy.Stats) {}
func (o *evalObserver) Eval(e train.EvalResult)       { o.evals = append(o.evals, e) }
func (o *evalObserver) Iteration(_ int, m algo.Metrics) {
	o.sampled = append(o.sampled, m["charts/success_rate"])
}

// learn runs cfg and measures the random policy on the same held-out seeds.
func learn(t *testing.T, cfg train.Config) learnResult {
	t.Helper()
	reg := learningRegistry(t)
	obs := &evalObserver{}
	res, err := train.Run(context.Background(), cfg, reg, train.Options{Dir: t.TempDir(), Observer: obs})
	require.NoError(t, err)
	require.Len(t, obs.evals, 2, "an evaluation before training and one at the end")
	require.Equal(t, cfg.Eval.Episodes, res.FinalEval.Episodes)
	return learnResult{
		random:  randomSuccess(t, reg, cfg),
		warmup:  obs.evals[0].SuccessRate,
		final:   res.FinalEval.SuccessRate,
		sampled: obs.sampled,
	}
}

// randomSuccess plays cfg's evaluation seeds with the env's SampleAction.
func randomSuccess(t *testing.T, reg *envs.Registry, cfg train.Config) float64 {
	t.Helper()
	env, err := reg.Make(cfg.Env.ID, envs.FromMap(cfg.Env.Options)...)
	require.NoError(t, err)
	sampler := env.(envs.ActionSampler)
	rng := rand.New(rand.NewPCG(cfg.Seed, 99))
	wins := 0
	for i := 0; i < cfg.Eval.Episodes; i++ {
		_, _, err := env.Reset(cfg.Eval.SeedBase + uint64(i))
		require.NoError(t, err)
		for {
			s, err := env.Step(sampler.SampleAction(rng))
			require.NoError(t, err)
			if s.Done() {
				if ok, _ := s.Info[envs.InfoSuccess].(bool); ok {
					wins++
				}
				break
			}
		}
	}
	return float64(wins) / float64(cfg.Eval.Episodes)
}

// tinyLearningConfig is the part both envs share: a 1-layer policy with a
// KL anchor, evaluated greedily before and after training only.
func tinyLearningConfig(name string) train.Config {
	c := train.DefaultConfig()
	c.Name = "learn-" + name
	c.Seed = 1
	c.Model = policy.Config{Layers: 1, DModel: 32, Heads: 2, Context: 64}
	c.Tokenizer = train.TokenizerConfig{MaxVocab: 256, CorpusEpisodes: 20}
	c.Algo.Name = name
	c.Algo.Epochs = 2
	c.Algo.Whiten = true
	c.Loss.KLCoef = 0.3
	c.Optim.LR = 3e-3
	c.Optim.Cosine = false // a constant learning rate after warm-up
	c.Sample.MaxNewTokens = 8
	c.Rollout = train.RolloutConfig{Episodes: 32, GroupSize: 1}
	if name == "grpo" {
		c.Rollout.GroupSize = 4
	}
	c.Eval = train.EvalConfig{Every: 0, Episodes: 100, SeedBase: 1 << 40}
	c.Checkpoint.Every = 0
	return c
}

// banditConfig learns the text bandit: 200 iterations of 32 episodes, 4
// optimizer steps each. GRPO learns only from groups whose members scored
// differently, and a group of 4 shares one context, so it gets 16 groups
// (64 episodes) per iteration in minibatches of 32: the same number of
// optimizer steps. With 8 groups it learned 3 of the 4 pairings in 70
// iterations (0.81) and all 4 only after 90. After the loss's float32 exp
// (commit 7658052) REINFORCE, the slowest here, had 0.69 at 100
// iterations and 0.80 at 130; all four are at 1.00 by 170.
func banditConfig(name string) train.Config {
	c := tinyLearningConfig(name)
	c.Iterations = 200
	c.Env = train.EnvConfig{ID: banditID, History: "none", NumEnvs: 16}
	c.Warmup = train.WarmupConfig{Steps: 200, BatchSize: 16, LR: 3e-3}
	c.Algo.MinibatchSize = 16
	if name == "grpo" {
		c.Rollout.Episodes, c.Algo.MinibatchSize = 64, 32
	}
	return c
}

// TestLearnTextBandit: each algorithm learns the colour → fruit pairing
// that the warm-up (uniformly random arms) does not know. Random play and
// the warm-up-only policy succeed about 1/4 of the time; the trained greedy
// policy must answer at least 90% of held-out contexts right.
func TestLearnTextBandit(t *testing.T) {
	for _, name := range learningAlgos {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			r := learn(t, banditConfig(name))
			t.Logf("%s: random %.2f, warm-up greedy %.2f, trained greedy %.2f", name, r.random, r.warmup, r.final)
			assert.InDelta(t, 0.25, r.random, 0.12, "random play wins about 1/K")
			assert.LessOrEqual(t, r.warmup, 0.45, "the warm-up must not know the pairing")
			assert.GreaterOrEqual(t, r.final, 0.9, "trained greedy success")
		})
	}
}

// guessID is the game of the GuessTheNumber learning tests.
const guessID = "game:GuessTheNumber-v0-easy"

// guessConfig learns GuessTheNumber-easy (1-10, 4 turns) with the tiny
// 1-layer model in about a minute of CPU. Two choices make that possible:
//   - env.history none: the policy sees only the latest observation
//     ("5: higher"). That is enough to play perfectly, since every number
//     sits at one node of the bisection tree 5 → 2/8 → 1,3/7,9 → 4/6,10,
//     so the last guess and its hint name the node; and the prompts are
//     short.
//   - γ 0.5: a guess is credited mostly with what its own hint leads to.
//     Greedy success after 300 iterations, seeds 1/2/3 (ReBN, before the
//     loss rows were computed apart): γ 0.5 0.83/0.75/0.72, γ 0.9
//     0.72/0.63/0.38, γ 1 0.37/0.71/0.35, γ 0.3 0.61/0.50/0.58.
//
// The warm-up reads random play (transcript), so it knows the \boxed{}
// format and guesses nearly uniformly; KL 0.01 keeps the format (with KL 0
// and γ 0.9, 3 of 3 seeds drifted into format errors that end the game:
// greedy 0.22/0/0.10 after 300 iterations, 1-1.9 turns a game).
func guessConfig(name string) train.Config {
	c := tinyLearningConfig(name)
	c.Iterations = 400
	c.Env = train.EnvConfig{ID: guessID, Options: train.EnvOptions{"style": "brief", "partial_credit": false}, History: "none", NumEnvs: 16}
	c.Tokenizer.CorpusEpisodes = 50
	c.Warmup = train.WarmupConfig{Steps: 400, BatchSize: 32, LR: 3e-3, Transcript: true}
	c.Algo.Gamma = 0.5
	c.Algo.MinibatchSize = 64
	c.Loss.KLCoef = 0.01
	c.Rollout.Episodes = 64
	if name == "grpo" {
		c.Iterations = 500
		c.Rollout = train.RolloutConfig{Episodes: 128, GroupSize: 8}
		c.Algo.MinibatchSize = 128
	}
	c.Eval.Episodes = 200
	return c
}

// TestLearnGuessTheNumberShort: each algorithm, from the same warm-up,
// learns to use the hints. Random play wins about 0.34 (four uniform
// guesses), and so does the warm-up policy when it samples. Every
// algorithm must raise its sampled success over the last 20 iterations
// (1280 episodes or more; standard error about 0.014) above random play by
// 0.08, and its greedy success on the 200 held-out games above random play
// by 0.05. Seed 1, measured: greedy / sampled success of the last 20
// iterations — rebn 0.465 / 0.476, reinforce 0.585 / 0.573, ppo
// 0.925 / 0.855, grpo 0.540 / 0.532.
//
// Single runs vary a great deal: the greedy policy flips between
// strategies from one evaluation to the next, and a change in the last
// bit of a float (another kernel, another BLAS) gives another run. ReBN
// on seeds 1/2/3, 500 iterations: greedy 0.545/0.925/0.51, sampled
// success of the last 20 iterations 0.57/0.79/0.62 (greedy after 300
// iterations: 0.47/0.825/0.705; before the loss rows were computed apart,
// 0.83/0.75/0.72). The thresholds sit below every run measured (GRPO: one
// run at its budget).
//
// GRPO gives every turn its episode's undiscounted return, so a guess is
// credited with the wins of later guesses, and a losing episode pushes
// down all its (more numerous) turns: the per-turn advantage averaged
// -0.15 in its runs and the entropy stayed high. It is the slow learner
// here, as in the GEM paper's multi-turn results, so it gets 128 episodes
// an iteration in groups of 8 and 500 iterations.
//
// The four runs take about 4 CPU minutes (2 m 40 s on two cores); -short
// skips them.
func TestLearnGuessTheNumberShort(t *testing.T) {
	if testing.Short() {
		t.Skip("trains four policies for about a minute each")
	}
	for _, name := range learningAlgos {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			r := learn(t, guessConfig(name))
			last, _ := stats.MeanStd(r.sampled[len(r.sampled)-20:])
			t.Logf("%s: random %.3f, warm-up greedy %.3f, trained greedy %.3f, sampled over the last 20 iterations %.3f", name, r.random, r.warmup, r.final, last)
			assert.InDelta(t, 0.34, r.random, 0.08, "random play: four uniform guesses in 1-10")
			assert.Less(t, r.warmup, 0.3, "the warm-up alone does not play well")
			assert.GreaterOrEqual(t, last, r.random+0.08, "sampled success of the last 20 iterations")
			assert.GreaterOrEqual(t, r.final, r.random+0.05, "trained greedy success")
		})
	}
}

// longLearningEnv enables the learning tests that take minutes.
const longLearningEnv = "GEMGO_LONG_LEARNING"

// TestLearnGuessTheNumber trains each algorithm with the whole-history
// config, configs/rebn_guess_obs.yaml (the main job until commit b9789c8:
// 2 layers, d = 64, γ 0.9, KL 0.01,
// 800 iterations of 64 episodes; GRPO in groups of 4), and requires the
// greedy success on the 200 held-out games to end clearly above random
// play (about 0.34: four uniform guesses in 1-10) and the warm-up-only
// policy, by 0.2; ReBN must end at 0.9 or more. Measured on
// seed 1 (final greedy success, with random play at 0.365 and the
// warm-up at 0.075): reinforce 1.000, rebn 0.925, grpo 0.690 (best 0.925),
// ppo 0.645 (best 0.780), before the loss computed its rows apart
// (policy/head.go); rebn again after it: 0.925 (before the loss's float32
// exp, which moves every trajectory).
//
// Each run takes 8-10 minutes on two idle cores, so the test runs only
// with GEMGO_LONG_LEARNING=1. With the whole history in the prompt the
// game learns slowly: at 100 iterations of 192 env steps (the
// configs/compare_guess.yaml sweep before it took the main job's
// last-observation recipe) every algorithm still ended below random
// play. TestLearnGuessTheNumberShort is the quick
// check, with the last observation only.
func TestLearnGuessTheNumber(t *testing.T) {
	if os.Getenv(longLearningEnv) == "" {
		t.Skipf("trains each algorithm for 8-10 minutes: set %s=1 to run it", longLearningEnv)
	}
	for _, name := range learningAlgos {
		t.Run(name, func(t *testing.T) {
			sets := []string{"eval.every=0", "checkpoint.every=0", "algo.name=" + name}
			if name == "grpo" {
				sets = append(sets, "rollout.group_size=4")
			}
			cfg, err := train.LoadFile("../configs/rebn_guess_obs.yaml", sets)
			require.NoError(t, err)
			r := learn(t, cfg)
			t.Logf("%s: random %.3f, warm-up greedy %.3f, trained greedy %.3f", name, r.random, r.warmup, r.final)
			assert.InDelta(t, 0.34, r.random, 0.08, "random play: four uniform guesses in 1-10")
			assert.Less(t, r.warmup, 0.3, "the warm-up alone does not play well")
			assert.GreaterOrEqual(t, r.final, max(r.random, r.warmup)+0.2, "trained greedy success")
			if name == "rebn" {
				assert.GreaterOrEqual(t, r.final, 0.9, "the main job's greedy success")
			}
		})
	}
}
