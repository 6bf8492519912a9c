package buffer

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func turn(promptLen, respLen int, r float64) Transition {
	return Transition{Prompt: make([]int, promptLen), Response: make([]int, respLen), LogProbs: make([]float32, respLen), Reward: r}
}

func TestAddEpisode(t *testing.T) {
	var b Buffer
	last := turn(3, 2, 1)
	last.Terminated = true
	ep, err := b.AddEpisode(5, 9, true, []Transition{turn(2, 2, 0), turn(3, 1, 0.5), last})
	require.NoError(t, err)
	assert.Equal(t, Episode{ID: 0, Group: 5, Seed: 9, Return: 1.5, Turns: 3, Success: true, First: 0}, ep)
	trunc := turn(1, 1, -0.1)
	trunc.Truncated = true
	ep2, err := b.AddEpisode(5, 9, false, []Transition{trunc})
	require.NoError(t, err)
	assert.Equal(t, 1, ep2.ID)
	assert.Equal(t, 3, ep2.First)
	turns := b.Turns(ep)
	for i, tr := range turns {
		assert.Equal(t, i, tr.Turn)
		assert.Equal(t, 0, tr.Episode)
		assert.Equal(t, 5, tr.Group)
	}
	s := b.Stats()
	assert.Equal(t, 2, s.Episodes)
	assert.Equal(t, 4, s.Transitions)
	assert.InDelta(t, (1.5-0.1)/2, s.MeanReturn, 1e-12)
	assert.InDelta(t, 0.5, s.SuccessRate, 1e-12)
	assert.InDelta(t, 2, s.MeanTurns, 1e-12)
	assert.Zero(t, s.MeanToolCalls)
	b.Episodes[0].ToolCalls = 3 // as the collector records a tool-wrapped episode
	assert.InDelta(t, 1.5, b.Stats().MeanToolCalls, 1e-12)
	b.Clear()
	assert.Equal(t, 0, b.Len())
	assert.Equal(t, Stats{}, b.Stats())
}

func TestAddEpisodeErrors(t *testing.T) {
	var b Buffer
	_, err := b.AddEpisode(0, 0, false, nil)
	assert.Error(t, err)
	_, err = b.AddEpisode(0, 0, false, []Transition{turn(1, 1, 0)})
	assert.ErrorContains(t, err, "neither terminated nor truncated")
	early := turn(1, 1, 0)
	early.Terminated = true
	end := turn(1, 1, 0)
	end.Truncated = true
	_, err = b.AddEpisode(0, 0, false, []Transition{early, end})
	assert.ErrorContains(t, err, "early")
	bad := turn(1, 2, 0)
	bad.LogProbs = bad.LogProbs[:1]
	bad.Terminated = true
	_, err = b.AddEpisode(0, 0, false, []Transition{bad})
	assert.ErrorContains(t, err, "log-probs")
	assert.Equal(t, 0, b.Len(), "a rejected episode adds nothing")
}

func TestMinibatches(t *testing.T) {
	for seed := uint64(0); seed < 50; seed++ {
		rng := rand.New(rand.NewPCG(seed, 1))
		var b Buffer
		n := 1 + rng.IntN(300)
		for i := 0; i < n; i++ {
			tr := turn(1+rng.IntN(60), 1+rng.IntN(8), 0)
			tr.Terminated = true
			_, err := b.AddEpisode(i, 0, false, []Transition{tr})
			require.NoError(t, err)
		}
		size := 1 + rng.IntN(64)
		batches := b.Minibatches(size, rand.New(rand.NewPCG(seed, 2)))
		seen := make([]int, n)
		for _, mb := range batches {
			assert.LessOrEqual(t, len(mb), size)
			assert.NotEmpty(t, mb)
			for _, i := range mb {
				seen[i]++
			}
		}
		for i, c := range seen {
			assert.Equal(t, 1, c, "index %d", i)
		}
		// Same seed, same batches.
		again := b.Minibatches(size, rand.New(rand.NewPCG(seed, 2)))
		assert.Equal(t, batches, again)
	}
}

func TestMinibatchesBucketByLength(t *testing.T) {
	// Half the sequences are short, half long: with bucketing, a minibatch
	// of 8 from a window of 64 holds lengths that are close together.
	var b Buffer
	rng := rand.New(rand.NewPCG(7, 7))
	for i := 0; i < 64; i++ {
		l := 4
		if i%2 == 1 {
			l = 100
		}
		tr := turn(l, 1, 0)
		tr.Terminated = true
		_, err := b.AddEpisode(i, 0, false, []Transition{tr})
		require.NoError(t, err)
	}
	for _, mb := range b.Minibatches(8, rng) {
		first := b.seqLen(mb[0])
		for _, i := range mb {
			assert.Equal(t, first, b.seqLen(i), "mixed lengths in a minibatch")
		}
	}
}

// Unit minibatches hold whole units, at least size transitions each (the
// last may hold fewer), every transition exactly once an epoch.
func TestUnitMinibatches(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	var b Buffer
	var units [][]int
	for e := 0; e < 40; e++ {
		var unit []int
		for range 1 + rng.IntN(6) {
			unit = append(unit, len(b.Transitions))
			b.Transitions = append(b.Transitions, turn(2+rng.IntN(30), 3, 0))
		}
		units = append(units, unit)
	}
	seen := map[int]int{}
	short := 0
	for _, mb := range b.UnitMinibatches(units, 16, rng) {
		n := 0
		for _, u := range mb {
			n += len(u)
			for _, i := range u {
				seen[i]++
			}
		}
		if n < 16 {
			short++
		}
	}
	assert.LessOrEqual(t, short, 1)
	assert.Len(t, seen, b.Len())
	for i, c := range seen {
		require.Equal(t, 1, c, "transition %d", i)
	}
}

// Filter keeps the chosen episodes with exactly their transitions, in
// order, renumbered as if they had been added alone (a property over
// random buffers).
func TestFilter(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for trial := range 200 {
		var b, want Buffer
		keep := map[uint64]bool{}
		for e := range 1 + r.IntN(12) {
			turns := make([]Transition, 1+r.IntN(4))
			for i := range turns {
				turns[i] = turn(1+r.IntN(5), 1+r.IntN(3), r.Float64())
				turns[i].Prompt[0] = 1000*e + i // where it came from
			}
			turns[len(turns)-1].Terminated = true
			seed := uint64(e)
			group := e / 3
			_, err := b.AddEpisode(group, seed, e%2 == 0, turns)
			require.NoError(t, err)
			if r.IntN(2) == 0 {
				keep[seed] = true
				_, err := want.AddEpisode(group, seed, e%2 == 0, turns)
				require.NoError(t, err)
			}
		}
		b.Filter(func(e Episode) bool { return keep[e.Seed] })
		require.Equal(t, append([]Episode{}, want.Episodes...), append([]Episode{}, b.Episodes...), "trial %d", trial)
		require.Equal(t, append([]Transition{}, want.Transitions...), append([]Transition{}, b.Transitions...), "trial %d", trial)
		require.Equal(t, want.Stats(), b.Stats())
	}
}

// Merge is the summary of the two sets of episodes together.
func TestStatsMerge(t *testing.T) {
	a := Stats{Episodes: 2, Transitions: 5, MeanReturn: 0.5, SuccessRate: 0.5, MeanTurns: 2.5, MeanToolCalls: 1}
	b := Stats{Episodes: 6, Transitions: 6, MeanReturn: 1, SuccessRate: 1, MeanTurns: 1, MeanToolCalls: 0}
	assert.Equal(t, Stats{Episodes: 8, Transitions: 11, MeanReturn: 0.875, SuccessRate: 0.875, MeanTurns: 1.375, MeanToolCalls: 0.25}, a.Merge(b))
	assert.Equal(t, a, a.Merge(Stats{}))
	assert.Equal(t, a, Stats{}.Merge(a))
	assert.Equal(t, Stats{}, Stats{}.Merge(Stats{}))
}

// SingleUnits makes every transition a unit of its own, in order.
func TestSingleUnits(t *testing.T) {
	var b Buffer
	assert.Empty(t, b.SingleUnits())
	for range 3 {
		b.Transitions = append(b.Transitions, turn(4, 2, 0))
	}
	assert.Equal(t, [][]int{{0}, {1}, {2}}, b.SingleUnits())
}
