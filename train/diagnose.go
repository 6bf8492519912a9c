package train

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"sync/atomic"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/policy"
	"github.com/gemgo/gemgo/rollout"
)

// A Diagnosis says, for one config and one policy, whether the env fits
// the model and how the policy plays the held-out seeds: the questions to
// answer before blaming an algorithm for a run that stays at random play.
//   - Does the observation fit? A prompt longer than the room the context
//     leaves (model.context − sample.max_new_tokens) loses its start.
//   - Does the answer fit? A legal answer longer than sample.max_new_tokens
//     is cut, which is a format error (and ends a Sudoku episode).
//   - How do random play, the greedy policy and the sampled policy score on
//     the same seeds, and where does the greedy policy loop?
//   - Does the policy write at positions the warm-up never trained? A turn
//     whose prompt and answer pass random play's longest (the policy plays
//     longer games than random play) puts its answer at positions whose
//     embeddings the imitation of random play left untrained.
type Diagnosis struct {
	Env          string
	Seeds        int // held-out seeds played (eval.seed_base on)
	Room         int // prompt tokens the policy reads: model.context − sample.max_new_tokens
	MaxNewTokens int

	// Random play's observations as prompts (the run's history applied)
	// and its actions as responses (with EOS), in tokens.
	RandomPrompts, RandomAnswers TokenStats
	Random                       float64 // random play's success on the seeds
	// RandomLongest is random play's longest turn on the seeds: its prompt
	// and answer (with EOS), in tokens, the transcript the warm-up trains.
	RandomLongest int

	Greedy, Sampled PlayStats
}

// TokenStats summarises lengths in tokens, and the share over a limit.
type TokenStats struct {
	N             int
	P50, P95, Max int
	Over          float64 // share longer than the limit it is checked against
}

// PlayStats is a policy's play of the held-out seeds.
type PlayStats struct {
	Success      float64
	Turns        float64 // mean turns an episode
	FormatErrors float64 // share of turns the env called a format error
	Invalid      float64 // share of turns the env called an invalid move
	Unfinished   float64 // share of answers cut at sample.max_new_tokens
	PromptsCut   float64 // share of prompts longer than the room (their start cut)
	PastRandom   float64 // share of turns whose prompt and answer pass Diagnosis.RandomLongest
	Repeats      float64 // share of episodes that play one action twice
	// AfterInvalid is the share of turns that follow an invalid move,
	// and UnfinishedAfterInvalid the share of those turns whose answer is
	// unfinished: a policy that never saw the env's refusal in its
	// warm-up may babble after it, and the format error ends the game.
	AfterInvalid, UnfinishedAfterInvalid float64
	Openings                             []Count // the most common first actions, most common first
	// UnfinishedExample is the first unfinished answer as decoded, with
	// the prompt it answered: what the policy writes instead of stopping.
	UnfinishedExample, UnfinishedPrompt string
}

// Count is how often a text occurred.
type Count struct {
	Text string
	N    int
}

// Diagnose plays cfg's held-out seeds (seeds of them) with random play and
// with the policy of ck, greedily and sampled as the run samples, and
// measures prompts and answers against the model's limits. ck supplies
// the tokenizer and weights; its shape must be the config's. It plays
// the evaluation's env (Config.EvalEnv: a mixture's first entry);
// DiagnoseEach plays each env the evaluation plays.
func Diagnose(ctx context.Context, cfg Config, reg *envs.Registry, ck *policy.Checkpoint, seeds int) (Diagnosis, error) {
	return diagnoseOn(ctx, cfg, cfg.EvalEnv(), reg, ck, seeds)
}

// NamedDiagnosis is the diagnosis of one env of several, under the name
// the evaluation gives it.
type NamedDiagnosis struct {
	Name string
	Diagnosis
}

// DiagnoseEach diagnoses ck, as Diagnose does, on every env the held-out
// evaluation plays (Config.EvalEnvs: each entry of a mixture, or each of
// eval.envs); for a run of one env, on that env, named by its id.
func DiagnoseEach(ctx context.Context, cfg Config, reg *envs.Registry, ck *policy.Checkpoint, seeds int) ([]NamedDiagnosis, error) {
	targets := cfg.EvalEnvs()
	if len(targets) == 0 {
		targets = []NamedEnv{{Name: cfg.EvalEnv().ID, Env: cfg.EvalEnv()}}
	}
	out := make([]NamedDiagnosis, 0, len(targets))
	for _, t := range targets {
		d, err := diagnoseOn(ctx, cfg, t.Env, reg, ck, seeds)
		if err != nil {
			if len(targets) > 1 {
				err = fmt.Errorf("%s: %w", t.Name, err)
			}
			return out, err
		}
		out = append(out, NamedDiagnosis{Name: t.Name, Diagnosis: d})
	}
	return out, nil
}

// diagnoseOn is Diagnose on env, one of the envs cfg evaluates on.
func diagnoseOn(ctx context.Context, cfg Config, env EnvConfig, reg *envs.Registry, ck *policy.Checkpoint, seeds int) (Diagnosis, error) {
	if err := cfg.Validate(); err != nil {
		return Diagnosis{}, err
	}
	if seeds < 1 || seeds > maxDiagnoseSeeds {
		return Diagnosis{}, fmt.Errorf("diagnose: %d seeds: allowed [1, %d]", seeds, maxDiagnoseSeeds)
	}
	if err := ck.Policy.Config.Diff(cfg.policyConfig(ck.Tokenizer.VocabSize())); err != nil {
		return Diagnosis{}, fmt.Errorf("diagnose: the checkpoint's model differs from the config's: %w (give the config of the run that saved it)", err)
	}
	newEnv := envFactory(ctx, reg, env, new(atomic.Uint64))
	sc := cfg.Sample.SampleConfig
	sc.EOS = ck.Tokenizer.EOS()
	agent := &rollout.Agent{Tok: ck.Tokenizer, Sampler: policy.NewSampler(ck.Policy), Context: ck.Policy.Config.Context,
		RequireEOS: cfg.Sample.RequireEOS, Sample: sc}
	d := Diagnosis{Env: env.ID, Seeds: seeds, Room: agent.Context - sc.MaxNewTokens, MaxNewTokens: sc.MaxNewTokens}
	list := make([]uint64, seeds)
	for i := range list {
		list[i] = cfg.Eval.SeedBase + uint64(i)
	}

	// 1. random play: prompt and answer lengths, success
	var prompts, answers []int
	solved := 0
	rng := rand.New(rand.NewPCG(3, 3))
	for _, seed := range list {
		ok, err := playRandom(ctx, newEnv, seed, rng, func(obs, action string) {
			p, a := len(ck.Tokenizer.EncodePrompt(obs)), len(ck.Tokenizer.EncodeResponse(action))
			prompts, answers = append(prompts, p), append(answers, a)
			d.RandomLongest = max(d.RandomLongest, p+a)
		})
		if err != nil {
			return d, fmt.Errorf("diagnose: random play of seed %d: %w", seed, err)
		}
		if ok {
			solved++
		}
	}
	d.Random = float64(solved) / float64(seeds)
	d.RandomPrompts = tokenStats(prompts, d.Room)
	d.RandomAnswers = tokenStats(answers, d.MaxNewTokens)

	// 2. the policy, greedy and sampled
	greedy := *agent
	greedy.Sample.Greedy = true
	greedy.Sample.Temperature = 1
	var err error
	if d.Greedy, err = playPolicy(ctx, newEnv, &greedy, list, d.RandomLongest, rand.New(rand.NewPCG(1, 1))); err != nil {
		return d, err
	}
	if d.Sampled, err = playPolicy(ctx, newEnv, agent, list, d.RandomLongest, rand.New(rand.NewPCG(2, 2))); err != nil {
		return d, err
	}
	return d, nil
}

// playRandom plays seed with the env's SampleAction, calling visit with each
// observation and the action taken on it; it reports the episode's success.
func playRandom(ctx context.Context, newEnv func() (envs.Env, error), seed uint64, rng *rand.Rand, visit func(obs, action string)) (bool, error) {
	env, err := newEnv()
	if err != nil {
		return false, err
	}
	defer envs.Close(env)
	sampler, ok := envs.SamplerOf(env)
	if !ok {
		return false, fmt.Errorf("the env has no SampleAction (envs.ActionSampler)")
	}
	obs, _, err := env.Reset(seed)
	if err != nil {
		return false, err
	}
	for turn := 0; turn < maxDiagnoseTurns; turn++ {
		if err := ctx.Err(); err != nil {
			return false, err
		}
		a := sampler.SampleAction(rng)
		visit(obs, a)
		st, err := env.Step(a)
		if err != nil {
			return false, err
		}
		if st.Done() {
			s, _ := st.Info[envs.InfoSuccess].(bool)
			return s, nil
		}
		obs = st.Obs
	}
	return false, nil
}

// maxDiagnoseSeeds bounds the seeds a diagnosis plays.
const maxDiagnoseSeeds = 100000

// maxDiagnoseTurns bounds an episode whose env never ends it.
const maxDiagnoseTurns = 1000

// playPolicy plays every seed with agent, one episode after another;
// longest is random play's longest turn in tokens (PlayStats.PastRandom).
func playPolicy(ctx context.Context, newEnv func() (envs.Env, error), agent *rollout.Agent, seeds []uint64, longest int, rng *rand.Rand) (PlayStats, error) {
	var ps PlayStats
	openings := map[string]int{}
	turns, formatErrs, invalid, unfinished, cut, solved, repeats, past := 0, 0, 0, 0, 0, 0, 0, 0
	afterInvalid, unfinishedAfter := 0, 0
	for _, seed := range seeds {
		env, err := newEnv()
		if err != nil {
			return ps, err
		}
		obs, _, err := env.Reset(seed)
		if err != nil {
			_ = envs.Close(env)
			return ps, err
		}
		seen := map[string]bool{}
		repeated, wasInvalid := false, false
		for turn := 0; turn < maxDiagnoseTurns; turn++ {
			if err := ctx.Err(); err != nil {
				_ = envs.Close(env)
				return ps, err
			}
			if len(agent.Tok.EncodePrompt(obs)) > agent.Context-agent.Sample.MaxNewTokens {
				cut++
			}
			acts, err := agent.Act([]string{obs}, rng)
			if err != nil {
				_ = envs.Close(env)
				return ps, fmt.Errorf("diagnose: the policy on seed %d: %w", seed, err)
			}
			a := acts[0]
			if len(a.Prompt)+len(a.Response) > longest {
				past++
			}
			if n := len(a.Response); n == 0 || a.Response[n-1] != agent.Tok.EOS() {
				if unfinished == 0 {
					ps.UnfinishedExample, ps.UnfinishedPrompt = agent.Tok.Decode(a.Response), obs
				}
				unfinished++
				if wasInvalid {
					unfinishedAfter++
				}
			}
			if wasInvalid {
				afterInvalid++
			}
			if turn == 0 {
				openings[a.Text]++
			}
			if seen[a.Text] {
				repeated = true
			}
			seen[a.Text] = true
			turns++
			st, err := env.Step(a.Text)
			if err != nil {
				_ = envs.Close(env)
				return ps, fmt.Errorf("diagnose: seed %d: %w", seed, err)
			}
			if b, _ := st.Info[envs.InfoFormatError].(bool); b {
				formatErrs++
			}
			wasInvalid, _ = st.Info[envs.InfoInvalid].(bool)
			if wasInvalid {
				invalid++
			}
			if st.Done() {
				if s, _ := st.Info[envs.InfoSuccess].(bool); s {
					solved++
				}
				break
			}
			obs = st.Obs
		}
		if repeated {
			repeats++
		}
		_ = envs.Close(env)
	}
	n, t := float64(len(seeds)), float64(max(turns, 1))
	ps.Success, ps.Turns, ps.Repeats = float64(solved)/n, float64(turns)/n, float64(repeats)/n
	ps.FormatErrors, ps.Invalid, ps.Unfinished, ps.PromptsCut = float64(formatErrs)/t, float64(invalid)/t, float64(unfinished)/t, float64(cut)/t
	ps.PastRandom = float64(past) / t
	ps.AfterInvalid = float64(afterInvalid) / t
	if afterInvalid > 0 {
		ps.UnfinishedAfterInvalid = float64(unfinishedAfter) / float64(afterInvalid)
	}
	for text, c := range openings {
		ps.Openings = append(ps.Openings, Count{text, c})
	}
	sort.Slice(ps.Openings, func(i, j int) bool {
		a, b := ps.Openings[i], ps.Openings[j]
		return a.N > b.N || a.N == b.N && a.Text < b.Text
	})
	if len(ps.Openings) > 3 {
		ps.Openings = ps.Openings[:3]
	}
	return ps, nil
}

// tokenStats summarises lengths against limit.
func tokenStats(lengths []int, limit int) TokenStats {
	if len(lengths) == 0 {
		return TokenStats{}
	}
	s := slices.Clone(lengths)
	slices.Sort(s)
	over := 0
	for _, l := range s {
		if l > limit {
			over++
		}
	}
	at := func(q float64) int { return s[min(len(s)-1, int(q*float64(len(s))))] }
	return TokenStats{N: len(s), P50: at(0.5), P95: at(0.95), Max: s[len(s)-1], Over: float64(over) / float64(len(s))}
}

// Write prints the diagnosis for a person.
func (d Diagnosis) Write(w io.Writer) {
	fmt.Fprintf(w, "env %s, %d held-out seeds\n", d.Env, d.Seeds)
	fmt.Fprintf(w, "prompt tokens (random play): p50 %d, p95 %d, max %d; room %d (model.context − sample.max_new_tokens): %.1f%% cut\n",
		d.RandomPrompts.P50, d.RandomPrompts.P95, d.RandomPrompts.Max, d.Room, 100*d.RandomPrompts.Over)
	fmt.Fprintf(w, "answer tokens (random play, with EOS): p50 %d, p95 %d, max %d; sample.max_new_tokens %d: %.1f%% cut\n",
		d.RandomAnswers.P50, d.RandomAnswers.P95, d.RandomAnswers.Max, d.MaxNewTokens, 100*d.RandomAnswers.Over)
	fmt.Fprintf(w, "success: random play %.3f, greedy %.3f, sampled %.3f\n", d.Random, d.Greedy.Success, d.Sampled.Success)
	for _, p := range []struct {
		name string
		s    PlayStats
	}{{"greedy", d.Greedy}, {"sampled", d.Sampled}} {
		fmt.Fprintf(w, "%s: %.2f turns an episode; of turns %.1f%% format errors, %.1f%% invalid moves, %.1f%% unfinished answers, %.1f%% cut prompts; %.1f%% of episodes repeat an action\n",
			p.name, p.s.Turns, 100*p.s.FormatErrors, 100*p.s.Invalid, 100*p.s.Unfinished, 100*p.s.PromptsCut, 100*p.s.Repeats)
		var open []string
		for _, c := range p.s.Openings {
			open = append(open, fmt.Sprintf("%s %.0f%%", envs.Excerpt(c.Text), 100*float64(c.N)/float64(d.Seeds)))
		}
		fmt.Fprintf(w, "%s openings: %s\n", p.name, strings.Join(open, ", "))
		if p.s.PastRandom > 0 {
			fmt.Fprintf(w, "%s: %.1f%% of turns pass random play's longest turn (%d tokens of prompt and answer): positions a warm-up on random play rarely or never trains\n",
				p.name, 100*p.s.PastRandom, d.RandomLongest)
		}
		if p.s.AfterInvalid > 0 {
			fmt.Fprintf(w, "%s: %.1f%% of turns follow an invalid move, %.1f%% of them unfinished answers\n",
				p.name, 100*p.s.AfterInvalid, 100*p.s.UnfinishedAfterInvalid)
		}
		if p.s.Unfinished > 0 {
			fmt.Fprintf(w, "%s unfinished answer, e.g. %s to %s\n", p.name, envs.Excerpt(p.s.UnfinishedExample), envs.Excerpt(p.s.UnfinishedPrompt))
		}
	}
}
