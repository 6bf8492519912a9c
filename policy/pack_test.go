package policy

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// packedEpisode returns the turns of one episode whose prompts grow (each
// the one before without its SEP, then new tokens and a SEP), each as a
// sequence of its own, and the same turns packed into one sequence.
func packedEpisode(rng *rand.Rand, vocab int, promptLens, respLens []int) (turns []Sequence, packed Sequence) {
	tok := func() int { return 3 + rng.IntN(vocab-3) }
	f32 := func(n int, lo, hi float64) []float32 {
		x := make([]float32, n)
		for i := range x {
			x[i] = float32(lo + (hi-lo)*rng.Float64())
		}
		return x
	}
	body := []int{BOSID}
	for t, pl := range promptLens {
		for len(body) < pl-1 {
			body = append(body, tok())
		}
		prompt := append(append([]int(nil), body...), SepID)
		resp := make([]int, respLens[t])
		for i := range resp {
			resp[i] = tok()
		}
		resp[len(resp)-1] = EOSID
		n := len(resp)
		turns = append(turns, Sequence{Prompt: prompt, Response: resp, Advantages: f32(n, -2, 2),
			OldLogProbs: f32(n, -4, -0.5), RefLogProbs: f32(n, -4, -0.5)})
	}
	last := turns[len(turns)-1]
	packed = last
	for _, s := range turns[:len(turns)-1] {
		packed.Branches = append(packed.Branches, Branch{Prefix: len(s.Prompt) - 1, Tail: []int{SepID},
			Response: s.Response, Advantages: s.Advantages, OldLogProbs: s.OldLogProbs, RefLogProbs: s.RefLogProbs})
	}
	return turns, packed
}

// Packing an episode's turns into one sequence changes no number: the
// log-probs, entropies, loss statistics and gradients equal those of the
// turns trained as sequences of their own, for every aggregation, with the
// clipped loss, the KL term and an entropy bonus, and also when the packed
// rows outnumber the model's context.
func TestPackedEqualsPerTurn(t *testing.T) {
	cfg := Config{Vocab: 23, Context: 24, Layers: 2, DModel: 16, Heads: 2}
	rng := rand.New(rand.NewPCG(21, 22))
	w, err := NewWeights(cfg, rng)
	require.NoError(t, err)
	var turns, packed []Sequence
	for _, ep := range []struct{ prompts, resps []int }{
		{[]int{5, 9, 14, 20}, []int{3, 4, 2, 4}}, // 19 + 3 + 3 + 1 + 3 = 29 rows > context 24
		{[]int{6, 8}, []int{5, 2}},
		{[]int{4}, []int{3}}, // one turn: a plain sequence
	} {
		ts, p := packedEpisode(rng, cfg.Vocab, ep.prompts, ep.resps)
		turns = append(turns, ts...)
		packed = append(packed, p)
	}
	require.Greater(t, packed[0].inputs(), cfg.Context)
	// Per-turn order of the packed values: each sequence's own turn, then its branches.
	var order []int
	first := 0
	for _, p := range packed {
		n := p.turns()
		order = append(order, first+n-1)
		for i := 0; i < n-1; i++ {
			order = append(order, first+i)
		}
		first += n
	}
	flat := func(xs [][]float32, idx []int) []float32 {
		var out []float32
		for _, i := range idx {
			out = append(out, xs[i]...)
		}
		return out
	}
	all := func(n int) []int {
		idx := make([]int, n)
		for i := range idx {
			idx[i] = i
		}
		return idx
	}
	tr, err := NewTrainer(w, OptimConfig{LR: 1e-3})
	require.NoError(t, err)
	lp1, h1, err := tr.Evaluate(turns, 1)
	require.NoError(t, err)
	lp2, h2, err := tr.Evaluate(packed, 1)
	require.NoError(t, err)
	require.InDeltaSlice(t, toF64(flat(lp1, order)), toF64(flat(lp2, all(len(packed)))), 1e-5)
	require.InDeltaSlice(t, toF64(flat(h1, order)), toF64(flat(h2, all(len(packed)))), 1e-5)

	for _, agg := range []string{"token mean", "turn mean"} {
		step := func(batch []Sequence) (Stats, [][]float32) {
			w2, err := NewWeights(cfg, rand.New(rand.NewPCG(21, 22)))
			require.NoError(t, err)
			tr, err := NewTrainer(w2, OptimConfig{LR: 1e-3})
			require.NoError(t, err)
			st, err := tr.Step(batch, 1, aggObjective{meanObjective(batch, testObjective{square: 0.1, entropy: 0.01}), agg == "turn mean"})
			require.NoError(t, err)
			return st, tr.Gradients()
		}
		s1, g1 := step(turns)
		s2, g2 := step(packed)
		require.InDelta(t, s1.Loss, s2.Loss, 1e-5, agg)
		require.InDelta(t, s1.Entropy, s2.Entropy, 1e-5, agg)
		require.InDeltaSlice(t, toF64(flat(s1.LogProbs, order)), toF64(flat(s2.LogProbs, all(len(packed)))), 1e-5, agg)
		require.Equal(t, s1.Tokens, s2.Tokens)
		var norm float64
		for i := range g1 {
			for j := range g1[i] {
				norm = math.Max(norm, math.Abs(float64(g1[i][j])))
			}
		}
		require.Greater(t, norm, 1e-3, "a gradient to compare")
		for i := range g1 {
			require.InDeltaSlice(t, toF64(g1[i]), toF64(g2[i]), 1e-5*norm, "%s: parameter %s", agg, w.Params[i].Name)
		}
	}
}

func toF64(x []float32) []float64 {
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = float64(v)
	}
	return out
}

// A packed sequence's branches are checked like sequences: a prefix out of
// range, an empty tail, a branch past the context, mismatched data.
func TestPackedSequenceErrors(t *testing.T) {
	cfg := Config{Vocab: 23, Context: 24, Layers: 1, DModel: 8, Heads: 2}
	base := func() Sequence {
		return Sequence{Prompt: []int{BOSID, 5, 6, SepID}, Response: []int{7, EOSID},
			Branches: []Branch{{Prefix: 2, Tail: []int{SepID}, Response: []int{8, EOSID}}}}
	}
	for _, tc := range []struct {
		edit func(s *Sequence)
		want string
	}{
		{func(s *Sequence) { s.Branches[0].Prefix = 0 }, "branch 0: prefix 0 outside [1, 4]"},
		{func(s *Sequence) { s.Branches[0].Prefix = 5 }, "branch 0: prefix 5 outside [1, 4]"},
		{func(s *Sequence) { s.Branches[0].Tail = nil }, "branch 0: empty tail"},
		{func(s *Sequence) { s.Branches[0].Response = nil }, "branch 0: empty response"},
		{func(s *Sequence) { s.Branches[0].Tail = make([]int, 23) }, "exceed model.context 24"},
		{func(s *Sequence) { s.Branches[0].Tail = []int{99} }, "branch 0: tail: token id 99 outside the vocabulary"},
		{func(s *Sequence) { s.Branches[0].Advantages = []float32{1} }, "branch 0: 1 advantages for 2 response tokens"},
		{func(s *Sequence) { s.Branches[0].RefLogProbs = []float32{float32(math.NaN()), 0} }, "non-finite"},
		{func(s *Sequence) {
			for range 10 {
				s.Branches = append(s.Branches, Branch{Prefix: 2, Tail: make([]int, 10), Response: []int{EOSID}})
			}
		}, "exceed 96 (4 × model.context)"},
	} {
		s := base()
		require.NoError(t, checkSequence(0, &s, cfg))
		tc.edit(&s)
		require.ErrorContains(t, checkSequence(0, &s, cfg), tc.want)
	}
}

// aggObjective is testObjective with, when perTurn, every turn weighing the
// same whatever its length (its tokens weigh 1/TurnLen of it).
type aggObjective struct {
	testObjective
	perTurn bool
}

func (o aggObjective) Token(t Token) TokenLoss {
	tl := o.testObjective.Token(t)
	if o.perTurn {
		tl.Weight /= float64(t.TurnLen)
	}
	return tl
}
