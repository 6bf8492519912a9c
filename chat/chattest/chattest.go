// Package chattest makes small checkpoints for the tests of chat, serve
// and eval: a 1-layer model warmed up for a few steps on random play of
// GuessTheNumber-easy (brief), so that its greedy answers are mostly
// \boxed{n} guesses and its episodes last several turns.
package chattest

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/gemgo/gemgo/chat"
	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/builtin"
	"github.com/gemgo/gemgo/policy"
)

// EnvID and Options are what the checkpoint was "trained" on.
const EnvID = "game:GuessTheNumber-v0-easy"

// Options are the env options of the checkpoint's serving settings.
func Options() map[string]any { return map[string]any{"style": "brief", "partial_credit": false} }

// Checkpoint returns a warmed-up checkpoint whose serving settings say
// env.history = history ("none", "observations" or "actions").
func Checkpoint(t testing.TB, history string) *policy.Checkpoint {
	t.Helper()
	return Sized(t, history, Small, Options())
}

// Size is a checkpoint's model: its layers, width, heads and context.
type Size struct{ Layers, DModel, Heads, Context int }

// Small is Checkpoint's model: 1 layer of d = 32, 2 heads, 96 tokens.
var Small = Size{Layers: 1, DModel: 32, Heads: 2, Context: 96}

// Sized is Checkpoint with the model size and the env options given (the
// options of EnvID the warm-up plays and the serving settings name).
func Sized(t testing.TB, history string, size Size, options map[string]any) *policy.Checkpoint {
	t.Helper()
	reg := builtin.Registry()
	rng := rand.New(rand.NewPCG(7, 7))
	var pairs [][2]string
	var corpus []string
	for seed := uint64(0); len(pairs) < 400; seed++ {
		e, err := reg.Make(EnvID, envs.FromMap(options)...)
		if err != nil {
			t.Fatal(err)
		}
		env, err := envs.WithHistory(e, history, 0)
		if err != nil {
			t.Fatal(err)
		}
		obs, _, err := env.Reset(seed)
		if err != nil {
			t.Fatal(err)
		}
		s, _ := envs.SamplerOf(env)
		for {
			a := s.SampleAction(rng)
			pairs = append(pairs, [2]string{obs, a})
			corpus = append(corpus, obs, a)
			st, err := env.Step(a)
			if err != nil {
				t.Fatal(err)
			}
			if st.Done() {
				break
			}
			obs = st.Obs
		}
	}
	tok := policy.BuildTokenizer(corpus, 64)
	w, err := policy.NewWeights(policy.Config{Vocab: tok.VocabSize(), Context: size.Context, Layers: size.Layers, DModel: size.DModel, Heads: size.Heads}, rng)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := policy.NewTrainer(w, policy.OptimConfig{LR: 3e-3, Beta1: 0.9, Beta2: 0.999, Eps: 1e-8, MaxGradNorm: 1})
	if err != nil {
		t.Fatal(err)
	}
	pick := func(r *rand.Rand) (string, string) { p := pairs[r.IntN(len(pairs))]; return p[0], p[1] }
	if _, err := policy.Warmup(context.Background(), tr, tok, pick, policy.WarmupConfig{Steps: 40, BatchSize: 16, PromptTokens: size.Context - 8}, rng); err != nil {
		t.Fatal(err)
	}
	meta := map[string]string{}
	set := chat.Settings{Format: chat.Format{History: history}, MaxTokens: 8, RequireEOS: true, Temperature: 1, EnvID: EnvID, EnvOptions: options}
	if err := chat.PutSettings(meta, set); err != nil {
		t.Fatal(err)
	}
	return &policy.Checkpoint{Policy: w, Tokenizer: tok, Meta: meta}
}
