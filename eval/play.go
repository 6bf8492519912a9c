package eval

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/gemgo/gemgo/chat"
	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/envbuild"
)

// maxEpisodeTurns bounds an episode whose env never ends it.
const maxEpisodeTurns = 10000

// episodeRNG is the random source of one episode: a function of its seed
// and sample only, so a policy plays the same episode the same way in any
// order, batch or rerun.
func episodeRNG(k Key) *rand.Rand {
	return rand.New(rand.NewPCG(k.Seed, 0x6576616c<<20|uint64(k.Sample)))
}

// newEnv makes the env of spec with cfg's options and, when cfg has tools,
// wraps it with tools of its own, with envbuild.Make (in this process: an
// evaluation plays no remote env and keeps no history, the policy's
// messages being the history). Every env of an evaluation is made here, so
// the check in Run and the episodes see the same env.
// spec is an -env value: an id, with options of its own after "?"
// (SplitEnvSpec) over cfg's EnvOptions.
func newEnv(reg *envs.Registry, cfg *Config, spec string) (envs.Env, error) {
	id, opts, err := specOptions(cfg, spec)
	if err != nil {
		return nil, err
	}
	env, err := envbuild.Make(context.Background(), reg, envbuild.Config{ID: id, Options: envs.FromMap(opts), Tools: cfg.Tools})
	var te *envbuild.ToolsError
	if errors.As(err, &te) {
		return nil, fmt.Errorf("-tool: %w", te.Err)
	}
	return env, err
}

// transcripter is an Actor that keeps its own view of the conversation
// (nativeActor), recorded as Record.NativeMessages.
type transcripter interface {
	Transcript() []chat.Message
}

// play plays the episode k with p. Every failure (of the env, the policy,
// a panic) ends the episode and is recorded in its Error.
func play(ctx context.Context, p Policy, reg *envs.Registry, cfg *Config, k Key) (rec Record) {
	start := time.Now()
	rec = Record{Key: k, Settings: cfg.EpisodeHash()}
	defer func() {
		if v := recover(); v != nil {
			rec.Error = fmt.Sprintf("panic: %v", v)
		}
		rec.LatencyS = time.Since(start).Seconds()
	}()
	env, err := newEnv(reg, cfg, k.Env)
	if err != nil {
		rec.Error = "env: " + err.Error()
		return rec
	}
	defer envs.Close(env)
	obs, _, err := env.Reset(k.Seed)
	if err != nil {
		rec.Error = fmt.Sprintf("env: reset seed %d: %v", k.Seed, err)
		return rec
	}
	actor, err := p.NewEpisode(k.Env, env)
	if err != nil {
		rec.Error = err.Error()
		return rec
	}
	if t, ok := actor.(transcripter); ok {
		defer func() { rec.NativeMessages = t.Transcript() }()
	}
	if cfg.System != "" {
		rec.Messages = append(rec.Messages, chat.Message{Role: chat.RoleSystem, Content: cfg.System})
	}
	rec.Messages = append(rec.Messages, chat.Message{Role: chat.RoleUser, Content: obs})
	rng := episodeRNG(k)
	for rec.Turns < maxEpisodeTurns {
		t, err := actor.Act(ctx, rec.Messages, rng)
		if err != nil {
			rec.Error = fmt.Sprintf("policy, turn %d: %v", rec.Turns+1, err)
			return rec
		}
		st, err := env.Step(t.Action)
		if err != nil {
			rec.Error = fmt.Sprintf("env: step %d: %v", rec.Turns+1, err)
			return rec
		}
		rec.Turns++
		rec.Messages = append(rec.Messages, chat.Message{Role: chat.RoleAssistant, Content: t.Action},
			chat.Message{Role: chat.RoleUser, Content: st.Obs})
		rec.Rewards = append(rec.Rewards, st.Reward)
		rec.Return += st.Reward
		if t.FinishReason != "" {
			rec.FinishReasons = append(rec.FinishReasons, t.FinishReason)
		}
		rec.PromptTokens += t.PromptTokens
		rec.CompletionTokens += t.CompletionTokens
		if st.Done() {
			rec.Success, _ = st.Info[envs.InfoSuccess].(bool)
			return rec
		}
	}
	rec.Error = fmt.Sprintf("env: the episode did not end within %d turns", maxEpisodeTurns)
	return rec
}
