package policy

import (
	"math/rand/v2"
	"runtime"
	"testing"
	"weak"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// graphShapesBatches is one training batch per (batch, length) bucket of a
// context-64 model: 3, 2 and 1 sequences (batch buckets 4, 2, 1) at
// lengths that fall in the buckets 8, 16, 32, 48 and 64; the batches of 2
// pack a branch into their first sequence (batch bucket 4).
func graphShapesBatches(rng *rand.Rand, c Config) [][]Sequence {
	var out [][]Sequence
	for _, n := range []int{6, 12, 25, 40, 60} {
		for b := 3; b >= 1; b-- {
			var batch []Sequence
			for range b {
				batch = append(batch, seqFor(rng, c, n-3, 4))
			}
			if b == 2 {
				s := &batch[0]
				s.Branches = []Branch{{Prefix: len(s.Prompt) - 2, Tail: randomTokens(rng, 2, c.Vocab), Response: randomTokens(rng, 2, c.Vocab), Advantages: []float32{-1, 0.5}}}
			}
			out = append(out, batch)
		}
	}
	return out
}

// exactRun runs batch (one chunk) through a new graph with buffers of its
// own, as the trainer did before its graphs shared a slab, on a copy of
// w's weights: the loss, the log-prob of each response row and the
// gradients.
func exactRun(t *testing.T, w *Weights, batch []Sequence, obj Objective) (float64, []float32, [][]float32) {
	t.Helper()
	w = w.Clone()
	var params [][]float32
	for _, p := range w.Params {
		params = append(params, p.Data)
	}
	L, b := batchLen(batch, w.Config.Context), bucketBatch(len(batch))
	if hasBranches(batch) {
		b = packedBatch(len(batch))
	}
	g, err := newGraph(w, params, b, L, false)
	require.NoError(t, err)
	fillPolicy(g, batch, 1, obj)
	require.NoError(t, g.run(params, true))
	var logp []float32
	responseRows(batch, L, func(_, row int) { logp = append(logp, float32(g.loss.tok[row].LogProb)) })
	var grads [][]float32
	for i := range params {
		grads = append(grads, append([]float32(nil), g.grad(i)...))
	}
	return g.costValue(), logp, grads
}

// A trainer holds at most maxGraphs graphs however many shapes it meets,
// and a graph it drops is freed: a weak pointer to each built graph is
// nil after a collection unless the cache still holds the graph.
func TestGraphCacheFreesEvicted(t *testing.T) {
	c := Config{Vocab: 11, Context: 64, Layers: 1, DModel: 8, Heads: 2}
	rng := rand.New(rand.NewPCG(5, 5))
	tr, err := NewTrainer(randomWeights(t, c, false, 3), OptimConfig{})
	require.NoError(t, err)
	tr.maxGraphs = 3
	built := map[[2]int]weak.Pointer[graph[float32]]{}
	for round := range 2 {
		for _, batch := range graphShapesBatches(rng, c) {
			_, err := tr.Step(batch, 1, meanObjective(batch, testObjective{}))
			require.NoError(t, err)
			require.LessOrEqual(t, len(tr.graphs), 3, "round %d: graphs held", round)
			for _, e := range tr.graphs {
				built[e.key] = weak.Make(e.g)
			}
		}
	}
	require.GreaterOrEqual(t, len(built), 10, "shapes met")
	runtime.GC()
	runtime.GC()
	held := map[[2]int]bool{}
	for _, e := range tr.graphs {
		held[e.key] = true
	}
	for key, p := range built {
		if held[key] {
			assert.NotNil(t, p.Value(), "shape %v is held", key)
		} else {
			assert.Nil(t, p.Value(), "shape %v was dropped but is still reachable", key)
		}
	}
	runtime.KeepAlive(tr)

	// the default bound, and the critic's cache
	tr.maxGraphs = 0
	crit, err := NewCriticWeights(c, rand.New(rand.NewPCG(1, 2)))
	require.NoError(t, err)
	cr, err := NewCritic(crit, OptimConfig{})
	require.NoError(t, err)
	cr.maxGraphs = 2
	for range 2 {
		for _, batch := range graphShapesBatches(rng, c) {
			_, err := tr.Step(batch, 1, meanObjective(batch, testObjective{}))
			require.NoError(t, err)
			require.LessOrEqual(t, len(tr.graphs), defaultMaxGraphs)
			prompts := make([][]int, len(batch))
			for i := range batch {
				prompts[i] = batch[i].Prompt
			}
			_, err = cr.Values(prompts)
			require.NoError(t, err)
			require.LessOrEqual(t, len(cr.graphs), 2)
		}
	}
	assert.Len(t, tr.graphs, 10, "every shape met fits the default bound")
}

// Sharing one slab across graphs, dropping and rebuilding graphs change
// no number. Every step of a trainer that keeps one graph (and so rebuilds
// at each change of shape) and of one that keeps them all (whose graphs
// write over each other's buffers) has the loss, log-probs and gradients
// of a graph with buffers of its own; their weights end equal.
func TestGraphCacheSameNumbers(t *testing.T) {
	c := Config{Vocab: 11, Context: 64, Layers: 2, DModel: 8, Heads: 2, TieEmbeddings: true}
	w := randomWeights(t, c, false, 4)
	one, err := NewTrainer(w.Clone(), OptimConfig{LR: 1e-2})
	require.NoError(t, err)
	one.maxGraphs = 1
	all, err := NewTrainer(w.Clone(), OptimConfig{LR: 1e-2})
	require.NoError(t, err)
	all.maxGraphs = 100
	batches := graphShapesBatches(rand.New(rand.NewPCG(6, 6)), c)
	for round := range 2 {
		for i, batch := range batches {
			obj := meanObjective(batch, testObjective{square: 0.1, entropy: 0.01})
			cost, logp, grads := exactRun(t, all.Weights(), batch, obj)
			a, err := one.Step(batch, 1, obj)
			require.NoError(t, err)
			b, err := all.Step(batch, 1, obj)
			require.NoError(t, err)
			require.Equal(t, b, a, "round %d, batch %d: stats", round, i)
			require.Equal(t, cost, b.Loss, "round %d, batch %d: loss", round, i)
			var got []float32
			for _, lp := range b.LogProbs {
				got = append(got, lp...)
			}
			require.Equal(t, logp, got, "round %d, batch %d: log-probs", round, i)
			require.Equal(t, grads, all.Gradients(), "round %d, batch %d: gradients", round, i)
			require.Equal(t, grads, one.Gradients(), "round %d, batch %d: gradients", round, i)
		}
	}
	assert.Len(t, one.graphs, 1)
	assert.GreaterOrEqual(t, len(all.graphs), 10, "graphs of many shapes shared one slab")
	for i, p := range all.Weights().Params {
		assert.Equal(t, p.Data, one.Weights().Params[i].Data, p.Name)
	}
}

// The gradient of a step run in chunks is the sum of its chunks' even
// when an earlier step ran in one chunk of the same graph. The trainer
// once kept a one-chunk step's gradients as views into the graph and
// reused the header slice of its chunk sum for them, so the next chunked
// step summed into that graph's own gradient buffer: its second chunk,
// run in that graph, overwrote the first chunk's sum and was then added
// to itself (GuessTheNumber-hard's run changed at iteration 83 once
// fixed).
func TestChunkedStepAfterOneChunkStep(t *testing.T) {
	c := Config{Vocab: 11, Context: 64, Layers: 1, DModel: 8, Heads: 2}
	rng := rand.New(rand.NewPCG(8, 8))
	batch := func(n int) []Sequence {
		var out []Sequence
		for range n {
			out = append(out, seqFor(rng, c, 50, 10))
		}
		return out
	}
	tr, err := NewTrainer(randomWeights(t, c, false, 5), OptimConfig{})
	require.NoError(t, err)
	steps := [][]Sequence{batch(maxChunkTokens/64 + 6), batch(8), batch(maxChunkTokens/64 + 6)} // chunks of 64 and 8; 8; 64 and 8
	for i, b := range steps {
		obj := meanObjective(b, testObjective{square: 0.1})
		fresh, err := NewTrainer(tr.Weights().Clone(), OptimConfig{})
		require.NoError(t, err)
		_, err = fresh.Step(b, 1, obj)
		require.NoError(t, err)
		_, err = tr.Step(b, 1, obj)
		require.NoError(t, err)
		require.Equal(t, fresh.Gradients(), tr.Gradients(), "step %d", i)
	}
}

// Graphs on the shared slab compute what graphs with buffers of their own
// do, step after step, on minibatches like a packed run's: random sizes
// (some run in two chunks), lengths and branches, with forward-only
// Evaluate runs in between.
func TestSlabSameAsOwnBuffers(t *testing.T) {
	c := Config{Vocab: 40, Context: 64, Layers: 2, DModel: 16, Heads: 2, TieEmbeddings: true}
	w := randomWeights(t, c, false, 4)
	slab, err := NewTrainer(w.Clone(), OptimConfig{LR: 1e-3, MaxGradNorm: 1})
	require.NoError(t, err)
	own, err := NewTrainer(w.Clone(), OptimConfig{LR: 1e-3, MaxGradNorm: 1})
	require.NoError(t, err)
	own.ownBuffers = true
	rng := rand.New(rand.NewPCG(1, 2))
	for step := range 24 {
		var batch []Sequence
		for range 1 + rng.IntN(90) {
			np := 5 + rng.IntN(40)
			s := seqFor(rng, c, np, 1+rng.IntN(10))
			for k := rng.IntN(3); k > 0; k-- {
				nr := 1 + rng.IntN(5)
				br := Branch{Prefix: 1 + rng.IntN(np), Tail: randomTokens(rng, 1+rng.IntN(3), c.Vocab), Response: randomTokens(rng, nr, c.Vocab)}
				if br.Prefix+len(br.Tail)+nr-1 > c.Context {
					continue
				}
				for range nr {
					br.Advantages = append(br.Advantages, float32(rng.NormFloat64()))
				}
				s.Branches = append(s.Branches, br)
			}
			batch = append(batch, s)
		}
		obj := meanObjective(batch, testObjective{square: 0.1, entropy: 0.01})
		a, err := slab.Step(batch, 1, obj)
		require.NoError(t, err)
		b, err := own.Step(batch, 1, obj)
		require.NoError(t, err)
		require.Equal(t, b, a, "step %d", step)
		if step%3 == 0 {
			sub := batch[:1+rng.IntN(len(batch))]
			la, ea, err := slab.Evaluate(sub, 1)
			require.NoError(t, err)
			lb, eb, err := own.Evaluate(sub, 1)
			require.NoError(t, err)
			require.Equal(t, lb, la, "step %d: log-probs", step)
			require.Equal(t, eb, ea, "step %d: entropies", step)
		}
	}
	require.Equal(t, own.Weights().Params, slab.Weights().Params)
}
