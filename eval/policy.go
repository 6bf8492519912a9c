package eval

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"

	"github.com/gemgo/gemgo/chat"
	"github.com/gemgo/gemgo/chat/openai"
	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/policy"
)

// Turn is a policy's answer in one step of an episode.
type Turn struct {
	Action           string // the text given to Env.Step
	FinishReason     string // chat.FinishStop or FinishLength for chat models; "" otherwise
	PromptTokens     int
	CompletionTokens int
}

// Policy plays episodes. NewEpisode is called once per episode with the
// env's registry id and the env as the registry made it (reset already);
// the Actor answers that episode's turns. A Policy is used from many
// goroutines at once.
type Policy interface {
	NewEpisode(id string, env envs.Env) (Actor, error)
}

// Actor answers the turns of one episode: msgs is the conversation so far
// (ending with the latest observation as a user message) and rng the
// episode's own random source.
type Actor interface {
	Act(ctx context.Context, msgs []chat.Message, rng *rand.Rand) (Turn, error)
}

// Random plays the env's random valid actions (envs.ActionSampler).
type Random struct{}

// NewEpisode needs an env that can draw random actions.
func (Random) NewEpisode(_ string, env envs.Env) (Actor, error) {
	s, ok := envs.SamplerOf(env)
	if !ok {
		return nil, errors.New("random: the env has no SampleAction (envs.ActionSampler)")
	}
	return randomActor{s}, nil
}

type randomActor struct{ s envs.ActionSampler }

func (a randomActor) Act(_ context.Context, _ []chat.Message, rng *rand.Rand) (Turn, error) {
	return Turn{Action: a.s.SampleAction(rng)}, nil
}

// ChatPolicy asks a chat model for each action: the reply's text is the
// action. With RequireFinish, an unfinished reply (finish_reason length)
// is sent to the env as "" (a format error), as training sends one. With
// Native, the env's tools are offered as functions and called with the
// reply's tool calls (ProtocolNative; see nativeActor).
type ChatPolicy struct {
	Model         chat.Model
	Request       chat.Request // the sampling fields sent with every turn (Messages are the episode's)
	RequireFinish bool
	Native        bool
}

// NewEpisode starts a conversation; every env can be played by a chat
// model, and with Native every env with tools.
func (p *ChatPolicy) NewEpisode(_ string, env envs.Env) (Actor, error) {
	if p.Native {
		return newNativeActor(p, env)
	}
	return chatActor{p}, nil
}

type chatActor struct{ p *ChatPolicy }

func (a chatActor) Act(ctx context.Context, msgs []chat.Message, rng *rand.Rand) (Turn, error) {
	req := a.p.Request
	req.Messages = msgs
	if req.Temperature == nil || *req.Temperature > 0 {
		req.Seed = chat.Int64(int64(rng.Uint64() >> 1))
	}
	resp, err := a.p.Model.Complete(ctx, req)
	if err != nil {
		return Turn{}, err
	}
	if len(resp.Choices) == 0 {
		return Turn{}, errors.New("the model answered with no choices")
	}
	c := resp.Choices[0]
	t := Turn{Action: c.Text, FinishReason: c.FinishReason, PromptTokens: resp.Usage.PromptTokens, CompletionTokens: resp.Usage.CompletionTokens}
	if a.p.RequireFinish && c.FinishReason == chat.FinishLength {
		t.Action = ""
	}
	return t, nil
}

// Opened is a policy ready to play, with what must be closed after.
type Opened struct {
	Policy Policy
	Closer io.Closer // nil when nothing to close
	Note   string    // what it is, for the report
	// Checkpoint is set for a checkpoint: how its run played its env.
	Checkpoint *chat.Settings
	// ID is a checkpoint's content, "sha256:" and the hex SHA-256 of the
	// file's bytes (the ones loaded); "" for the other policies.
	ID string
}

// Named names the opened policy spec for Run, with its Note and ID.
func (o Opened) Named(spec string) Named {
	return Named{Name: spec, Policy: o.Policy, Note: o.Note, ID: o.ID}
}

// OpenPolicy turns a -policy spec into a Policy:
//
//	random               the env's random valid actions
//	oracle               the env's solver (see Oracles)
//	MODEL@URL            an OpenAI-compatible endpoint, e.g. gpt-4o-mini@https://api.openai.com/v1
//	PATH                 a checkpoint file, or a run directory (its final.safetensors)
//
// A checkpoint is read once: its ID is the hash of the bytes it was
// loaded from, so the records of a rerun after the file was replaced are
// told apart from the old ones.
//
// apiKey is sent to endpoints (cmd/eval reads OPENAI_API_KEY).
func OpenPolicy(spec string, cfg Config, oracles *Oracles, apiKey string) (Opened, error) {
	req := chat.Request{MaxTokens: cfg.MaxTokens, Stop: cfg.Stop, Temperature: chat.Float(cfg.Temperature)}
	if cfg.TopP > 0 && cfg.TopP < 1 {
		req.TopP = chat.Float(cfg.TopP)
	}
	switch {
	case spec == "random":
		return Opened{Policy: Random{}, Note: "the env's random valid actions"}, nil
	case spec == "oracle":
		return Opened{Policy: oracles, Note: "the env's solver"}, nil
	case strings.Contains(spec, "@http://") || strings.Contains(spec, "@https://"):
		name, url, _ := strings.Cut(spec, "@")
		m, err := openai.New(openai.Config{BaseURL: url, Model: name, APIKey: apiKey, Timeout: cfg.Timeout, Retries: cfg.Retries})
		if err != nil {
			return Opened{}, fmt.Errorf("-policy %s: %w", spec, err)
		}
		note := "OpenAI-compatible endpoint " + url
		if cfg.native() {
			note += ", native function calling"
		}
		return Opened{Policy: &ChatPolicy{Model: m, Request: req, RequireFinish: true, Native: cfg.native()}, Note: note}, nil
	}
	path := spec
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		path = filepath.Join(path, "final.safetensors")
	} else if err != nil {
		return Opened{}, fmt.Errorf("-policy %s: not random, oracle, MODEL@http(s)://URL, nor an existing checkpoint file or run directory", spec)
	}
	if cfg.native() {
		return Opened{}, fmt.Errorf("-policy %s: -tool-protocol native needs an endpoint (MODEL@URL): a checkpoint reads the text protocol it trained on; serve it with cmd/serve and give -policy NAME@http://ADDR/v1", spec)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return Opened{}, fmt.Errorf("-policy %s: %w", spec, err)
	}
	ck, err := policy.UnmarshalCheckpoint(data)
	if err != nil {
		return Opened{}, fmt.Errorf("-policy %s: load checkpoint %s: %w", spec, path, err)
	}
	sum := sha256.Sum256(data)
	id := "sha256:" + hex.EncodeToString(sum[:])
	set, err := chat.CheckpointSettings(ck)
	if err != nil {
		return Opened{}, fmt.Errorf("-policy %s: %w", spec, err)
	}
	eng, err := chat.NewEngine(ck, chat.EngineConfig{Settings: set, MaxBatch: max(cfg.Concurrency, 1), Queue: max(4*cfg.Concurrency, 64)})
	if err != nil {
		return Opened{}, fmt.Errorf("-policy %s: %w", spec, err)
	}
	note := fmt.Sprintf("checkpoint %s %s (trained on %s, history %s)", path, id[:len("sha256:")+12], set.EnvID, set.Format.History)
	return Opened{Policy: &ChatPolicy{Model: eng, Request: req, RequireFinish: set.RequireEOS}, Closer: eng, Note: note, Checkpoint: &set, ID: id}, nil
}
