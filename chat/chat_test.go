package chat_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/gemgo/gemgo/chat"
	"github.com/gemgo/gemgo/chat/chattest"
	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/builtin"
	"github.com/gemgo/gemgo/policy"
	"github.com/gemgo/gemgo/rollout"
	"github.com/stretchr/testify/require"
)

// Render of the inner env's conversation reproduces the history
// wrappers' observations turn by turn (same seed, same actions).
func TestFormatMatchesHistoryWrappers(t *testing.T) {
	reg := builtin.Registry()
	for _, id := range []string{"game:GuessTheNumber-v0-hard", "game:Mastermind-v0-easy", "game:TowerofHanoi-v0-easy"} {
		for _, mode := range []string{chat.HistoryNone, chat.HistoryObservations, chat.HistoryActions} {
			for _, keep := range []int{0, 2} {
				rng := rand.New(rand.NewPCG(1, uint64(keep)))
				for seed := uint64(0); seed < 5; seed++ {
					inner, err := reg.Make(id)
					require.NoError(t, err)
					plain, err := reg.Make(id)
					require.NoError(t, err)
					wrapped := inner
					switch mode {
					case chat.HistoryObservations:
						wrapped, _ = envs.NewObservationHistory(inner, keep)
					case chat.HistoryActions:
						wrapped, _ = envs.NewActionObservationHistory(inner, keep)
					}
					f := chat.Format{History: mode, Keep: keep}
					want, _, err := wrapped.Reset(seed)
					require.NoError(t, err)
					obs, _, err := plain.Reset(seed)
					require.NoError(t, err)
					msgs := []chat.Message{{Role: chat.RoleSystem, Content: "dropped"}, {Role: chat.RoleUser, Content: obs}}
					s, _ := envs.SamplerOf(plain)
					for turn := 0; turn < 40; turn++ {
						got, err := f.Render(msgs)
						require.NoError(t, err)
						require.Equal(t, want, got, "%s %s keep %d seed %d turn %d", id, mode, keep, seed, turn)
						a := s.SampleAction(rng)
						ws, err := wrapped.Step(a)
						require.NoError(t, err)
						ps, err := plain.Step(a)
						require.NoError(t, err)
						if ps.Done() {
							break
						}
						msgs = append(msgs, chat.Message{Role: chat.RoleAssistant, Content: a}, chat.Message{Role: chat.RoleUser, Content: ps.Obs})
						want = ws.Obs
					}
				}
			}
		}
	}
}

func TestFormatErrors(t *testing.T) {
	f := chat.Format{History: chat.HistoryObservations}
	for name, msgs := range map[string][]chat.Message{
		"empty":           nil,
		"only system":     {{Role: chat.RoleSystem, Content: "x"}},
		"assistant first": {{Role: chat.RoleAssistant, Content: "x"}},
		"two users":       {{Role: chat.RoleUser, Content: "a"}, {Role: chat.RoleUser, Content: "b"}},
		"ends assistant":  {{Role: chat.RoleUser, Content: "a"}, {Role: chat.RoleAssistant, Content: "b"}},
		"unknown role":    {{Role: "tool", Content: "a"}},
	} {
		_, err := f.Render(msgs)
		var inv *chat.InvalidError
		require.ErrorAs(t, err, &inv, name)
		require.Equal(t, "messages", inv.Param, name)
	}
	_, err := chat.Format{History: "all"}.Render([]chat.Message{{Role: chat.RoleUser}})
	require.ErrorContains(t, err, `history "all"`)
}

// The engine answers a conversation as rollout.Agent, the training
// sampler, answers the history-wrapped observation (greedy).
func TestEngineMatchesTrainingAgent(t *testing.T) {
	ck := chattest.Checkpoint(t, chat.HistoryObservations)
	set, err := chat.CheckpointSettings(ck)
	require.NoError(t, err)
	require.Equal(t, chat.Format{History: chat.HistoryObservations}, set.Format)
	eng, err := chat.NewEngine(ck, chat.EngineConfig{Settings: set})
	require.NoError(t, err)
	defer eng.Close()
	agent := &rollout.Agent{Tok: ck.Tokenizer, Sampler: policy.NewSampler(ck.Policy), Context: ck.Policy.Config.Context, RequireEOS: true,
		Sample: policy.SampleConfig{MaxNewTokens: set.MaxTokens, EOS: ck.Tokenizer.EOS(), Greedy: true}}
	reg := builtin.Registry()
	turns, parsed := 0, 0
	for seed := uint64(0); seed < 20; seed++ {
		plain, err := reg.Make(chattest.EnvID, envs.FromMap(chattest.Options())...)
		require.NoError(t, err)
		inner, _ := reg.Make(chattest.EnvID, envs.FromMap(chattest.Options())...)
		wrapped, _ := envs.NewObservationHistory(inner, 0)
		obs, _, _ := plain.Reset(seed)
		wobs, _, _ := wrapped.Reset(seed)
		msgs := []chat.Message{{Role: chat.RoleUser, Content: obs}}
		for {
			acts, err := agent.Act([]string{wobs}, nil)
			require.NoError(t, err)
			resp, err := eng.Complete(context.Background(), chat.Request{Messages: msgs, Temperature: chat.Float(0)})
			require.NoError(t, err)
			c := resp.Choices[0]
			text := c.Text
			if c.FinishReason == chat.FinishLength {
				text = ""
			}
			require.Equal(t, acts[0].Text, text, "seed %d turn %d", seed, turns)
			require.Equal(t, len(acts[0].Prompt), resp.Usage.PromptTokens)
			turns++
			if _, ok := envs.LastBoxed(text); ok {
				parsed++
			}
			ps, _ := plain.Step(text)
			ws, _ := wrapped.Step(text)
			if ps.Done() {
				break
			}
			msgs = append(msgs, chat.Message{Role: chat.RoleAssistant, Content: text}, chat.Message{Role: chat.RoleUser, Content: ps.Obs})
			wobs = ws.Obs
		}
	}
	require.Greater(t, turns, 30, "the episodes must last several turns for the test to mean something")
	require.Greater(t, parsed, turns/2)
}

// Concurrent requests share sampler calls, get the answers they get alone
// (each row has its own rng), and a full queue answers ErrQueueFull.
func TestEngineBatchesAndBoundsItsQueue(t *testing.T) {
	ck := chattest.Checkpoint(t, chat.HistoryObservations)
	set, _ := chat.CheckpointSettings(ck)
	eng, err := chat.NewEngine(ck, chat.EngineConfig{Settings: set})
	require.NoError(t, err)
	req := func(i int) chat.Request {
		return chat.Request{Messages: []chat.Message{{Role: chat.RoleUser, Content: "Guess the number between 1 and 10 in 4 turns. Answer \\boxed{n}."}},
			Temperature: chat.Float(1), Seed: chat.Int64(int64(i)), N: 2}
	}
	alone := make([]chat.Response, 32)
	for i := range alone {
		alone[i], err = eng.Complete(context.Background(), req(i))
		require.NoError(t, err)
	}
	before := eng.Batches.Load()
	got := make([]chat.Response, 32)
	var wg sync.WaitGroup
	for i := range got {
		wg.Add(1)
		go func() { defer wg.Done(); got[i], _ = eng.Complete(context.Background(), req(i)) }()
	}
	wg.Wait()
	for i := range got {
		require.Equal(t, alone[i].Choices, got[i].Choices, "request %d", i)
	}
	require.Less(t, eng.Batches.Load()-before, int64(32), "32 concurrent requests must share sampler calls")
	require.NoError(t, eng.Close())
	_, err = eng.Complete(context.Background(), req(0))
	require.ErrorIs(t, err, chat.ErrClosed)

	small, err := chat.NewEngine(ck, chat.EngineConfig{Settings: set, Queue: 1, MaxBatch: 1})
	require.NoError(t, err)
	defer small.Close()
	var full sync.WaitGroup
	var mu sync.Mutex
	rejected := 0
	for i := 0; i < 64; i++ {
		full.Add(1)
		go func() {
			defer full.Done()
			if _, err := small.Complete(context.Background(), req(i)); errors.Is(err, chat.ErrQueueFull) {
				mu.Lock()
				rejected++
				mu.Unlock()
			}
		}()
	}
	full.Wait()
	require.Positive(t, rejected, "64 requests at once into a queue of 1 must meet ErrQueueFull")
}

func TestEngineRejectsBadRequests(t *testing.T) {
	ck := chattest.Checkpoint(t, chat.HistoryNone)
	set, _ := chat.CheckpointSettings(ck)
	eng, err := chat.NewEngine(ck, chat.EngineConfig{Name: "m", Settings: set})
	require.NoError(t, err)
	defer eng.Close()
	user := []chat.Message{{Role: chat.RoleUser, Content: "hi"}}
	for param, r := range map[string]chat.Request{
		"model":                 {Model: "other", Messages: user},
		"n":                     {Messages: user, N: 99},
		"temperature":           {Messages: user, Temperature: chat.Float(2.5)},
		"top_p":                 {Messages: user, TopP: chat.Float(0)},
		"max_completion_tokens": {Messages: user, MaxTokens: 1000},
		"stop":                  {Messages: user, Stop: []string{"a", "b", "c", "d", "e"}},
		"messages":              {},
	} {
		_, err := eng.Complete(context.Background(), r)
		var inv *chat.InvalidError
		require.ErrorAs(t, err, &inv, param)
		require.Equal(t, param, inv.Param)
	}
	// a stop string cuts the answer and makes it finished
	obs := []chat.Message{{Role: chat.RoleUser, Content: "Guess the number between 1 and 10 in 4 turns. Answer \\boxed{n}."}}
	full, err := eng.Complete(context.Background(), chat.Request{Messages: obs, Temperature: chat.Float(0)})
	require.NoError(t, err)
	k := strings.Index(full.Choices[0].Text, "{")
	require.Positive(t, k, "the warmed-up model answers \\boxed{n}: %q", full.Choices[0].Text)
	cut, err := eng.Complete(context.Background(), chat.Request{Messages: obs, Temperature: chat.Float(0), Stop: []string{"{"}})
	require.NoError(t, err)
	require.Equal(t, chat.Choice{Text: full.Choices[0].Text[:k], FinishReason: chat.FinishStop}, cut.Choices[0])
}
