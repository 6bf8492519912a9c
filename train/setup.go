package train

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync/atomic"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/envbuild"
	"github.com/gemgo/gemgo/policy"
	"github.com/gemgo/gemgo/tools"
)

// trainFactory returns a function that makes the training env: env.id's
// (envFactory) or, with env.mix, a mixEnv of every entry.
func trainFactory(ctx context.Context, reg *envs.Registry, c Config, made *atomic.Uint64) func() (envs.Env, error) {
	if len(c.Env.Mix) > 0 {
		return mixFactory(ctx, reg, c, made)
	}
	return envFactory(ctx, reg, c.Env, made)
}

// envFactory returns a function that makes the configured env with
// envbuild.Make: in-process or, with env.remote, on an env server (under
// ctx, so that a run's Ctrl-C ends a wait on a silent server), wrapped in
// env.tools and then in the history wrapper. With several servers the
// k-th env (from 0) that the factories sharing made make plays on server
// k mod n: a run makes its envs one after another in a fixed order (the
// probe, random play, the rollout slots in slot order, each evaluation's),
// so the slots are spread evenly and the same way on every run.
func envFactory(ctx context.Context, reg *envs.Registry, ec EnvConfig, made *atomic.Uint64) func() (envs.Env, error) {
	return func() (envs.Env, error) {
		var remote string
		if n := uint64(len(ec.Remote)); n > 0 {
			remote = ec.Remote[(made.Add(1)-1)%n]
		}
		return envbuild.Make(ctx, reg, envbuild.Config{
			ID: ec.ID, Remote: remote, Options: envs.FromMap(ec.Options), // fresh options for each env
			Tools: ec.Tools, History: ec.History, HistoryKeep: ec.HistoryKeep,
		})
	}
}

// randomStart wraps the envs newEnv makes in envs.RandomStart when
// rollout.random_start asks for exploring starts (the training envs only:
// the warm-up, the tokenizer's random play and evaluation start at the
// beginning).
func randomStart(newEnv func() (envs.Env, error), rc RolloutConfig) func() (envs.Env, error) {
	if rc.RandomStart == 0 {
		return newEnv
	}
	return func() (envs.Env, error) {
		e, err := newEnv()
		if err != nil {
			return nil, err
		}
		w, err := envs.NewRandomStart(e, rc.RandomStart, rc.RandomStartTurns)
		if err != nil {
			_ = envs.Close(e)
			return nil, fmt.Errorf("rollout.random_start: %w", err)
		}
		return w, nil
	}
}

// needSamplers is needSampler on the training env: on each entry's env
// for a mixture.
func needSamplers(c Config, env envs.Env) error {
	if m, ok := env.(*mixEnv); ok {
		for i, e := range m.envs {
			if err := needSampler(c.Env.Mix[i].ID, e); err != nil {
				return fmt.Errorf("env.mix[%d]: %w", i, err)
			}
		}
		return nil
	}
	return needSampler(c.Env.ID, env)
}

// needSampler checks that env, as the run wraps it, can draw random
// actions: the vocabulary (and the format warm-up) come from random play.
// A wrapper always has a SampleAction method, so the check is
// envs.SamplerOf's, which looks through the wrappers.
func needSampler(id string, env envs.Env) error {
	if _, ok := envs.SamplerOf(env); ok {
		return nil
	}
	return fmt.Errorf("env %s has no SampleAction: training builds its vocabulary (tokenizer.corpus_episodes) and the format warm-up (warmup.steps) from random play, so the env must draw random valid actions; implement envs.ActionSampler on it (SampleAction(r *rand.Rand) string)", id)
}

// pair is one (observation, action) step of random play; afterTool marks
// an observation that is a tool's result (the step before was a call).
type pair struct {
	obs, action string
	afterTool   bool
}

// randomPlay plays episodes with the env's SampleAction and calls visit
// for every (observation, action) pair, until visit returns false or ctx
// ends (an interrupt while a slow env, a tool's, plays: ctx.Err()). On a
// mixture it fails when an entry played no episode: the text of that
// env would be missing from what the caller builds.
func randomPlay(ctx context.Context, newEnv func() (envs.Env, error), seed uint64, rng *rand.Rand, visit func(pair) bool) error {
	return randomPlayOff(ctx, newEnv, seed, 0, 0, rng, visit)
}

// offSeed offsets the seeds of the second env that randomPlayOff draws
// its off-state actions from, away from the episodes it plays.
const offSeed = 1 << 40

// randomPlayOff is randomPlay in which each turn, with probability off,
// plays instead the action SampleAction draws for another episode's state
// (a second env, played at random beside): a move that random play does
// not make in this state when its sampler is informed (a filled Sudoku
// cell or a clashing digit, a Game2048 move that changes nothing, a wall,
// a revealed cell). The off-state turn is not visited, since its action is
// not one to imitate, but the observation after it is, with SampleAction's
// action: the feedback that a policy's own mistakes get.
//
// With probability repeat, a turn after the episode's first plays instead
// the episode's previous action again, unvisited as well: the move a small
// policy most often gets wrong in the guessing games (Wordle and Hangman
// refuse it as already guessed, a turn lost), whose refusal random play
// never shows. off = 0 and repeat = 0 draw nothing extra from rng, so
// that is randomPlay exactly.
func randomPlayOff(ctx context.Context, newEnv func() (envs.Env, error), seed uint64, off, repeat float64, rng *rand.Rand, visit func(pair) bool) error {
	env, err := newEnv()
	if err != nil {
		return err
	}
	defer envs.Close(env)
	sampler, ok := envs.SamplerOf(env)
	if !ok {
		return fmt.Errorf("env has no SampleAction (envs.ActionSampler): random play needs one")
	}
	mix, _ := env.(*mixEnv)
	var met []int // episodes begun per mixture entry
	if mix != nil {
		met = make([]int, len(mix.envs))
	}
	var other *offState
	if off > 0 {
		if other, err = newOffState(newEnv, seed+offSeed); err != nil {
			return err
		}
		defer envs.Close(other.env)
	}
	for ep := uint64(0); ; ep++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		obs, _, err := env.Reset(seed + ep)
		if err != nil {
			return err
		}
		if mix != nil {
			met[mix.current()]++
		}
		afterTool := false
		prev := "" // the episode's previous action
		for {
			var a string
			if prev != "" && repeat > 0 && rng.Float64() < repeat {
				a = prev
			} else if other != nil && rng.Float64() < off {
				if a, err = other.action(rng); err != nil {
					return err
				}
			} else {
				a = sampler.SampleAction(rng)
				if !visit(pair{obs, a, afterTool}) {
					return mix.covered(met)
				}
			}
			prev = a
			st, err := env.Step(a)
			if err != nil {
				return err
			}
			afterTool, _ = st.Info[tools.InfoUseTool].(bool)
			if st.Done() {
				if !visit(pair{st.Obs, "", afterTool}) {
					return mix.covered(met)
				}
				break
			}
			obs = st.Obs
		}
	}
}

// offState is the second env of randomPlayOff: random play of its own
// episodes, one step for each action it lends.
type offState struct {
	env     envs.Env
	sampler envs.ActionSampler
	seed    uint64
}

func newOffState(newEnv func() (envs.Env, error), seed uint64) (*offState, error) {
	env, err := newEnv()
	if err != nil {
		return nil, err
	}
	sampler, _ := envs.SamplerOf(env) // the same kind of env as the one played
	o := &offState{env: env, sampler: sampler, seed: seed}
	if _, _, err := env.Reset(o.seed); err != nil {
		_ = envs.Close(env)
		return nil, err
	}
	return o, nil
}

// action draws SampleAction's action in the second env's state and plays
// it there, starting its next episode when that one ends.
func (o *offState) action(rng *rand.Rand) (string, error) {
	a := o.sampler.SampleAction(rng)
	st, err := o.env.Step(a)
	if err != nil {
		return "", err
	}
	if st.Done() {
		o.seed++
		if _, _, err := o.env.Reset(o.seed); err != nil {
			return "", err
		}
	}
	return a, nil
}

// buildTokenizer builds the vocabulary from the text of random episodes.
func buildTokenizer(ctx context.Context, newEnv func() (envs.Env, error), tc TokenizerConfig, seed uint64, rng *rand.Rand) (*policy.Tokenizer, error) {
	var corpus []string
	episodes := 0
	err := randomPlay(ctx, newEnv, seed, rng, func(p pair) bool {
		corpus = append(corpus, p.obs)
		if p.action == "" {
			episodes++
		} else {
			corpus = append(corpus, p.action)
		}
		return episodes < tc.CorpusEpisodes
	})
	if err != nil {
		return nil, fmt.Errorf("tokenizer corpus: %w", err)
	}
	return policy.BuildTokenizerDigits(corpus, tc.MaxVocab, tc.Digits), nil
}
