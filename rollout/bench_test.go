package rollout_test

import (
	"context"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/gemgo/gemgo/buffer"
	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/game/guessnumber"
	"github.com/gemgo/gemgo/policy"
	"github.com/gemgo/gemgo/rollout"
)

// The rollout benchmark plays game:GuessTheNumber-v0-easy (brief style,
// observation history, as train.DefaultConfig) with train.DefaultConfig's
// model (2 layers, d = 64, 4 heads; the vocabulary comes from the
// tokenizer built on the env's text), after a short format warm-up so that
// episodes last several turns as in training. One op is one Collect of
// benchEpisodes episodes on n env slots, so ns/op compares the slot counts
// on the same work.

const (
	benchEpisodes = 64
	benchContext  = 128 // as train.DefaultConfig: room for the whole history
	benchNewTok   = 8   // as train.DefaultConfig
)

// benchPolicy is the warmed-up reference policy, built once per process.
var benchPolicy = sync.OnceValues(func() (*benchModel, error) {
	rng := rand.New(rand.NewPCG(7, 0))
	var corpus []string
	var pairs [][2]string
	err := randomEpisodes(200, rng, func(obs, action string) {
		corpus = append(corpus, obs, action)
		pairs = append(pairs, [2]string{obs, action})
	})
	if err != nil {
		return nil, err
	}
	tok := policy.BuildTokenizer(corpus, 256)
	w, err := policy.NewWeights(policy.Config{Vocab: tok.VocabSize(), Context: benchContext, Layers: 2, DModel: 64, Heads: 4}, rng)
	if err != nil {
		return nil, err
	}
	tr, err := policy.NewTrainer(w, policy.OptimConfig{LR: 3e-3, MaxGradNorm: 1})
	if err != nil {
		return nil, err
	}
	draw := func(r *rand.Rand) (string, string) {
		p := pairs[r.IntN(len(pairs))]
		return p[0], p[1]
	}
	if _, err := policy.Warmup(context.Background(), tr, tok, draw, policy.WarmupConfig{Steps: 60, BatchSize: 16, PromptTokens: benchContext - benchNewTok}, rng); err != nil {
		return nil, err
	}
	return &benchModel{tok: tok, w: w}, nil
})

type benchModel struct {
	tok *policy.Tokenizer
	w   *policy.Weights
}

// newBenchEnv makes the benchmarked env: the game under an observation
// history.
func newBenchEnv() (envs.Env, error) {
	g, err := guessnumber.New(guessnumber.Config{Min: 1, Max: 10, MaxTurns: 4, Style: envs.StyleBrief})
	if err != nil {
		return nil, err
	}
	return envs.NewObservationHistory(g, 0)
}

// randomEpisodes plays n episodes with SampleAction and visits each
// (observation, action) pair.
func randomEpisodes(n int, rng *rand.Rand, visit func(obs, action string)) error {
	env, err := newBenchEnv()
	if err != nil {
		return err
	}
	sampler := env.(envs.ActionSampler)
	for seed := uint64(0); seed < uint64(n); seed++ {
		obs, _, err := env.Reset(seed)
		if err != nil {
			return err
		}
		for {
			a := sampler.SampleAction(rng)
			visit(obs, a)
			s, err := env.Step(a)
			if err != nil {
				return err
			}
			if s.Done() {
				break
			}
			obs = s.Obs
		}
	}
	return nil
}

// benchRollout collects benchEpisodes episodes per op on n env slots.
func benchRollout(b *testing.B, n int) {
	m, err := benchPolicy()
	if err != nil {
		b.Fatal(err)
	}
	agent := &rollout.Agent{Tok: m.tok, Sampler: policy.NewSampler(m.w), Context: benchContext,
		Sample: policy.SampleConfig{MaxNewTokens: benchNewTok, Temperature: 1, EOS: m.tok.EOS()}}
	col, err := rollout.NewCollector(n, newBenchEnv, agent)
	if err != nil {
		b.Fatal(err)
	}
	defer col.Close()
	rng := rand.New(rand.NewPCG(1, uint64(n)))
	var buf buffer.Buffer
	var total rollout.Stats
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		buf.Clear()
		plan := rollout.Plan{Budget: rollout.Budget{Episodes: benchEpisodes}, Seed: rollout.SeedSequence(1, i)}
		st, err := col.Collect(context.Background(), plan, &buf, rng)
		if err != nil {
			b.Fatal(err)
		}
		total.Episodes += st.Episodes
		total.Steps += st.Steps
		total.SampledTokens += st.SampledTokens
	}
	secs := b.Elapsed().Seconds()
	b.ReportMetric(float64(total.Episodes)/secs, "episodes/s")
	b.ReportMetric(float64(total.Steps)/secs, "steps/s")
	b.ReportMetric(float64(total.SampledTokens)/secs, "tokens/s")
	b.ReportMetric(float64(total.Steps)/float64(total.Episodes), "turns/episode")
}

func BenchmarkRollout(b *testing.B) {
	b.Run("envs=1", func(b *testing.B) { benchRollout(b, 1) })
	b.Run("envs=8", func(b *testing.B) { benchRollout(b, 8) })
	b.Run("envs=32", func(b *testing.B) { benchRollout(b, 32) })
}
