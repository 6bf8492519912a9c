package policy_test

import (
	"context"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/builtin"
	"github.com/gemgo/gemgo/policy"
)

// guessPairs draws (observation, SampleAction) pairs from
// game:GuessTheNumber-v0-easy in the brief style: a fresh episode, 0 to
// max_turns−1 random guesses, and the observation the policy would read then
// (the instruction and one feedback line per past turn).
func guessPairs(t testing.TB) policy.PairFunc {
	t.Helper()
	env, err := builtin.Registry().Make("game:GuessTheNumber-v0-easy", envs.With("style", "brief"))
	require.NoError(t, err)
	sampler := env.(envs.ActionSampler)
	return func(rng *rand.Rand) (string, string) {
		obs, info, err := env.Reset(rng.Uint64())
		require.NoError(t, err)
		lines := []string{obs}
		for range rng.IntN(info[envs.InfoMaxTurns].(int)) {
			st, err := env.Step(sampler.SampleAction(rng))
			require.NoError(t, err)
			if st.Done() {
				break
			}
			lines = append(lines, st.Obs)
		}
		return strings.Join(lines, "\n"), sampler.SampleAction(rng)
	}
}

// guessTokenizer builds a vocabulary from 300 sampled pairs.
func guessTokenizer(t testing.TB, pairs policy.PairFunc) *policy.Tokenizer {
	rng := rand.New(rand.NewPCG(11, 12))
	var corpus []string
	for range 300 {
		obs, act := pairs(rng)
		corpus = append(corpus, obs, act)
	}
	return policy.BuildTokenizer(corpus, 64)
}

func TestTokenizerFromGuessTheNumber(t *testing.T) {
	pairs := guessPairs(t)
	tok := guessTokenizer(t, pairs)
	for _, piece := range []string{`\boxed{`, " higher", " lower", "Guess", " number", " turns"} {
		assert.Len(t, tok.Encode(piece), 1, "%q is not a single token", piece)
		assert.GreaterOrEqual(t, tok.Encode(piece)[0], policy.FirstPieceID, piece)
	}
	for d := '0'; d <= '9'; d++ {
		assert.Equal(t, []int{policy.ByteBase + int(d)}, tok.Encode(string(d)))
	}
	assert.Equal(t, []int{policy.ByteBase + '1', policy.ByteBase + '0'}, tok.Encode("10"))
	// \boxed{7} and EOS: four tokens.
	assert.Len(t, tok.EncodeResponse(`\boxed{7}`), 4)
	rng := rand.New(rand.NewPCG(5, 6))
	for range 100 {
		obs, act := pairs(rng)
		require.Equal(t, obs, tok.Decode(tok.Encode(obs)))
		require.Equal(t, act, tok.Decode(tok.Encode(act)))
	}
}

// parses reports whether a sampled response is a GuessTheNumber action: the
// last \boxed{...} holds a whole number.
func parses(text string) bool {
	c, ok := envs.LastBoxed(text)
	if !ok {
		return false
	}
	_, err := strconv.Atoi(c)
	return err == nil
}

// warmupModel is the tiny model of the warm-up tests.
func warmupModel(t testing.TB, tok *policy.Tokenizer, seed uint64) (*policy.Trainer, *policy.Weights) {
	cfg := policy.Config{Vocab: tok.VocabSize(), Context: 48, Layers: 1, DModel: 32, Heads: 2}
	w, err := policy.NewWeights(cfg, rand.New(rand.NewPCG(seed, 1)))
	require.NoError(t, err)
	tr, err := policy.NewTrainer(w, policy.OptimConfig{LR: 1e-2})
	require.NoError(t, err)
	return tr, w
}

// parseRate samples n actions at temperature 1 and returns the fraction
// that parse.
func parseRate(t testing.TB, w *policy.Weights, tok *policy.Tokenizer, pairs policy.PairFunc, n int, seed uint64) float64 {
	rng := rand.New(rand.NewPCG(seed, 3))
	prompts := make([][]int, n)
	for i := range prompts {
		obs, _ := pairs(rng)
		prompts[i] = tok.EncodePrompt(obs)
	}
	samples, err := policy.NewSampler(w).Sample(prompts, policy.SampleConfig{MaxNewTokens: 8, Temperature: 1, EOS: policy.EOSID}, rng)
	require.NoError(t, err)
	ok, shown := 0, 0
	for _, s := range samples {
		if parses(tok.Decode(s.Tokens)) {
			ok++
			continue
		}
		if shown < 5 { // shown when the test fails or with -v
			var ts []string
			for _, id := range s.Tokens {
				ts = append(ts, tok.TokenString(id))
			}
			t.Logf("does not parse: %q", ts)
			shown++
		}
	}
	return float64(ok) / float64(n)
}

func TestWarmupLearnsFormat(t *testing.T) {
	pairs := guessPairs(t)
	tok := guessTokenizer(t, pairs)
	tr, w := warmupModel(t, tok, 1)
	before := parseRate(t, w, tok, pairs, 200, 7)
	assert.Less(t, before, 0.05, "an untrained model should not write the format")

	st, err := policy.Warmup(context.Background(), tr, tok, pairs, policy.WarmupConfig{Steps: 150, BatchSize: 32}, rand.New(rand.NewPCG(2, 2)))
	require.NoError(t, err)
	require.Equal(t, 150, st.Steps)
	require.Equal(t, 150*32, st.Pairs)
	require.Zero(t, st.Cut)
	first, last := mean(st.Loss[:5]), mean(st.Loss[len(st.Loss)-10:])
	t.Logf("loss %.3f -> %.3f", first, last)
	assert.Less(t, last, first/3)

	after := parseRate(t, w, tok, pairs, 200, 7)
	t.Logf("sampled actions that parse: %.3f before, %.3f after warm-up", before, after)
	assert.GreaterOrEqual(t, after, 0.95)
}

func mean(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}

func TestWarmupDeterministic(t *testing.T) {
	pairs := guessPairs(t)
	tok := guessTokenizer(t, pairs)
	run := func() (*policy.Weights, policy.WarmupStats) {
		tr, w := warmupModel(t, tok, 3)
		var logged []int
		st, err := policy.Warmup(context.Background(), tr, tok, pairs, policy.WarmupConfig{Steps: 3, BatchSize: 4,
			Log: func(step int, s policy.Stats) { logged = append(logged, step) }}, rand.New(rand.NewPCG(4, 4)))
		require.NoError(t, err)
		require.Equal(t, []int{1, 2, 3}, logged)
		return w, st
	}
	w1, s1 := run()
	w2, s2 := run()
	require.Equal(t, s1, s2)
	for i, p := range w1.Params {
		requireSameBits(t, p.Data, w2.Params[i].Data, p.Name)
	}
	for _, l := range s1.Loss {
		require.False(t, math.IsNaN(l))
	}
}

func TestWarmupPromptCut(t *testing.T) {
	tok := policy.BuildTokenizer(briefCorpus, 20)
	tr, _ := warmupModel(t, tok, 5)
	long := strings.Repeat("5: higher\n", 40)
	pairs := func(*rand.Rand) (string, string) { return long, `\boxed{7}` }
	st, err := policy.Warmup(context.Background(), tr, tok, pairs, policy.WarmupConfig{Steps: 2, BatchSize: 2}, rand.New(rand.NewPCG(1, 1)))
	require.NoError(t, err)
	assert.Equal(t, 4, st.Cut)
	st, err = policy.Warmup(context.Background(), tr, tok, func(*rand.Rand) (string, string) { return "5", `\boxed{7}` },
		policy.WarmupConfig{Steps: 1, BatchSize: 3, PromptTokens: 2}, rand.New(rand.NewPCG(1, 1)))
	require.NoError(t, err)
	assert.Equal(t, 3, st.Cut)
}

// A canceled context stops the warm-up before its next step.
func TestWarmupStopsWithContext(t *testing.T) {
	tok := policy.BuildTokenizer(briefCorpus, 20)
	tr, _ := warmupModel(t, tok, 5)
	ctx, cancel := context.WithCancel(context.Background())
	pairs := func(*rand.Rand) (string, string) { return "5: higher", `\boxed{7}` }
	cfg := policy.WarmupConfig{Steps: 1000, BatchSize: 2, Log: func(step int, _ policy.Stats) {
		if step == 2 {
			cancel()
		}
	}}
	st, err := policy.Warmup(ctx, tr, tok, pairs, cfg, rand.New(rand.NewPCG(1, 1)))
	require.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, 2, st.Steps)
	assert.Len(t, st.Loss, 2)
}

func TestWarmupErrors(t *testing.T) {
	tok := policy.BuildTokenizer(briefCorpus, 20)
	tr, _ := warmupModel(t, tok, 5)
	ok := func(*rand.Rand) (string, string) { return "Guess", `\boxed{1}` }
	rng := rand.New(rand.NewPCG(1, 1))
	for _, tc := range []struct {
		name  string
		tr    *policy.Trainer
		tok   *policy.Tokenizer
		pairs policy.PairFunc
		cfg   policy.WarmupConfig
		rng   *rand.Rand
		want  string
	}{
		{"nil trainer", nil, tok, ok, policy.WarmupConfig{}, rng, "nil trainer"},
		{"nil tokenizer", tr, nil, ok, policy.WarmupConfig{}, rng, "nil tokenizer"},
		{"nil pairs", tr, tok, nil, policy.WarmupConfig{}, rng, "nil pair function"},
		{"nil rng", tr, tok, ok, policy.WarmupConfig{}, nil, "nil rng"},
		{"steps", tr, tok, ok, policy.WarmupConfig{Steps: -1}, rng, "warmup.steps = -1"},
		{"batch", tr, tok, ok, policy.WarmupConfig{BatchSize: -2}, rng, "warmup.batch_size = -2"},
		{"prompt tokens", tr, tok, ok, policy.WarmupConfig{PromptTokens: 1}, rng, "WarmupConfig.PromptTokens = 1"},
		{"vocab", tr, policy.BuildTokenizer(briefCorpus, 3), ok, policy.WarmupConfig{}, rng, "the model has a vocabulary of 275 tokens but the tokenizer has 263"},
		{"long action", tr, tok, func(*rand.Rand) (string, string) { return "x", strings.Repeat("9", 48) },
			policy.WarmupConfig{Steps: 1}, rng, "no room for a prompt in model.context = 48"},
	} {
		st, err := policy.Warmup(context.Background(), tc.tr, tc.tok, tc.pairs, tc.cfg, tc.rng)
		require.Error(t, err, tc.name)
		assert.Contains(t, err.Error(), tc.want, tc.name)
		assert.Zero(t, st.Steps, tc.name)
	}
	assert.Equal(t, policy.WarmupConfig{Steps: 300, BatchSize: 32}, policy.DefaultWarmupConfig())
}
