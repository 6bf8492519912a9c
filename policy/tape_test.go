package policy

import (
	"math/rand/v2"
	"runtime"
	"testing"
	"weak"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A trainer that is dropped is freed with its graphs: gorgonia's tape
// machine, which a graph holds and whose ops reach the graph back, must
// carry no finalizer (newTape), or the cycle keeps everything alive; a
// process that trains run after run (cmd/compare) then grew by every
// run's trainers.
func TestDroppedTrainerIsFreed(t *testing.T) {
	c := Config{Vocab: 11, Context: 64, Layers: 1, DModel: 8, Heads: 2}
	rng := rand.New(rand.NewPCG(5, 5))
	var trainers []weak.Pointer[Trainer]
	var graphs []weak.Pointer[graph[float32]]
	for range 3 {
		tr, err := NewTrainer(randomWeights(t, c, false, 3), OptimConfig{})
		require.NoError(t, err)
		for _, batch := range graphShapesBatches(rng, c)[:2] {
			_, err := tr.Step(batch, 1, meanObjective(batch, testObjective{}))
			require.NoError(t, err)
		}
		require.NotEmpty(t, tr.graphs)
		for _, e := range tr.graphs {
			graphs = append(graphs, weak.Make(e.g))
		}
		trainers = append(trainers, weak.Make(tr))
	}
	runtime.GC()
	runtime.GC()
	for i, p := range trainers {
		assert.Nil(t, p.Value(), "trainer %d is still reachable", i)
	}
	for i, p := range graphs {
		assert.Nil(t, p.Value(), "graph %d is still reachable", i)
	}
}
