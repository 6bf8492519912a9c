package policy

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// A sampler that keeps its decoded prefixes between calls samples exactly
// what a fresh sampler samples, to the bit, on every kernel path of this
// CPU: episodes whose prompts extend the last prompt (with or without the
// response), new episodes, two prompts extending one earlier prompt (the
// copy path), a weight change between calls (which must drop the rows), a
// LogProbs call between calls (which overwrites slot 0), and greedy calls.
// It also checks that the rows were reused.
func TestSamplerPrefixReuseSameSamples(t *testing.T) {
	configs := []Config{
		{Vocab: 13, Context: 48, Layers: 2, DModel: 16, Heads: 4},
		{Vocab: 29, Context: 64, Layers: 2, DModel: 32, Heads: 2, TieEmbeddings: true},
		{Vocab: 17, Context: 40, Layers: 1, DModel: 64, Heads: 4},
	}
	for _, mode := range kernelPaths() {
		restore := useKernels(mode)
		defer restore()
		for ci, cfg := range configs {
			seed := uint64(10*ci + 1)
			if !mode[1] {
				seed += 100
			}
			w := randomWeights(t, cfg, false, seed)
			s := NewSampler(w)
			ep := rand.New(rand.NewPCG(seed, 1)) // the episodes' shapes
			r1, r2 := rand.New(rand.NewPCG(seed, 2)), rand.New(rand.NewPCG(seed, 2))
			sep := 1
			newPrompt := func() []int { return append([]int{0}, append(randomTokens(ep, 1+ep.IntN(4), cfg.Vocab), sep)...) }
			prompts := make([][]int, 6)
			for i := range prompts {
				prompts[i] = newPrompt()
			}
			for call := 0; call < 40; call++ {
				sc := SampleConfig{MaxNewTokens: 4, EOS: 2, Greedy: call%5 == 4}
				switch call % 13 {
				case 7: // the trainer moved the weights
					p := w.Params[ep.IntN(len(w.Params))]
					p.Data[ep.IntN(len(p.Data))] += 0.5
				case 11:
					_, err := s.LogProbs(prompts[0], []int{3, 4}, 1)
					require.NoError(t, err)
				}
				reused0, _ := s.PromptTokens()
				got, err := s.Sample(prompts, sc, r1)
				require.NoError(t, err)
				want, err := NewSampler(w).Sample(prompts, sc, r2)
				require.NoError(t, err)
				require.Equal(t, want, got, "mode %v config %d call %d", mode, ci, call)
				if reused, _ := s.PromptTokens(); call%13 == 7 || call%13 == 11 {
					require.Equal(t, reused0, reused, "call %d reused rows computed before the weights changed or LogProbs", call)
				}
				// the next turn: shuffle, extend, restart, duplicate
				var next [][]int
				for i, p := range prompts {
					resp := got[i].Tokens
					switch k := ep.IntN(10); {
					case k == 0 || len(p)+len(resp)+8 > cfg.Context-sc.MaxNewTokens:
						next = append(next, newPrompt())
					case k < 5: // history of observations: the prompt without its SEP, a hint, SEP
						next = append(next, append(slices.Clone(p[:len(p)-1]), append(randomTokens(ep, 1+ep.IntN(3), cfg.Vocab), sep)...))
					default: // history with the actions
						next = append(next, append(append(slices.Clone(p), resp...), append(randomTokens(ep, 1+ep.IntN(3), cfg.Vocab), sep)...))
					}
				}
				if ep.IntN(3) == 0 {
					next[0] = append(slices.Clone(prompts[1]), 5, sep) // prompts 0 and 1 both extend the old prompt 1
				}
				ep.Shuffle(len(next), func(a, b int) { next[a], next[b] = next[b], next[a] })
				prompts = next
			}
			reused, computed := s.PromptTokens()
			require.Greater(t, reused, computed, "mode %v config %d: most prompt tokens should be reused (reused %d, computed %d)", mode, ci, reused, computed)
		}
	}
}

// assign's plan, over random cache contents and prompts: distinct slots;
// each prompt starts after its longest prefix any slot holds, and before
// its last token; the copies read only slots no prompt writes, and after
// them each prompt's slot holds the prompt's first start tokens.
func TestPrefixAssign(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	tokens := func() []int { return randomTokens(rng, 1+rng.IntN(6), 3) } // 3 symbols: many shared prefixes
	for trial := 0; trial < 2000; trial++ {
		var pc prefixCache
		for j := rng.IntN(6); j > 0; j-- {
			if rng.IntN(4) == 0 {
				pc.slots = append(pc.slots, nil) // a free slot
				continue
			}
			pc.slots = append(pc.slots, tokens())
		}
		held := slices.Clone(pc.slots)
		prompts := make([][]int, 1+rng.IntN(6))
		for i := range prompts {
			prompts[i] = tokens()
		}
		slot, start, copies, n := pc.assign(prompts)
		written := map[int]bool{}
		for i, p := range prompts {
			require.False(t, written[slot[i]], "trial %d: slot %d given twice", trial, slot[i])
			written[slot[i]] = true
			require.Less(t, slot[i], n)
			require.Less(t, start[i], len(p))
			best := 0
			for _, h := range held {
				best = max(best, commonPrefix(h, p, len(p)-1))
			}
			require.Equal(t, best, start[i], "trial %d prompt %d", trial, i)
		}
		after := slices.Clone(held)
		for len(after) < n {
			after = append(after, nil)
		}
		for _, c := range copies {
			require.True(t, written[c.from], "trial %d: copy from slot %d, which no prompt keeps", trial, c.from)
			for _, d := range copies {
				require.NotEqual(t, c.from, d.to, "trial %d: slot %d is read and written by copies", trial, c.from)
			}
			after[c.to] = slices.Clone(held[c.from][:c.n])
		}
		for i, p := range prompts {
			require.GreaterOrEqual(t, len(after[slot[i]]), start[i])
			require.True(t, slices.Equal(p[:start[i]], after[slot[i]][:start[i]]), "trial %d prompt %d", trial, i)
		}
	}
}

// Prompts of one call that start with the same tokens share the rows of
// those tokens, and every sample and log-prob is, to the bit, what the
// prompt sampled alone by a fresh sampler (no sharing of any kind) gets
// with its own rng: identical prompts (a batch of chat requests), prompts
// that extend one another or share only their start, on every kernel path
// of this CPU, sampled and greedy.
func TestSamplerSharesWithinCall(t *testing.T) {
	cfg := Config{Vocab: 29, Context: 64, Layers: 2, DModel: 32, Heads: 2, TieEmbeddings: true}
	for _, mode := range kernelPaths() {
		restore := useKernels(mode)
		defer restore()
		w := randomWeights(t, cfg, false, 7)
		ep := rand.New(rand.NewPCG(7, 1))
		instr := randomTokens(ep, 20, cfg.Vocab)
		var prompts [][]int
		for i := range 12 {
			p := slices.Clone(instr)
			switch i % 4 {
			case 1:
				p = append(p, randomTokens(ep, 1+ep.IntN(5), cfg.Vocab)...)
			case 2:
				p = append(slices.Clone(instr[:5+ep.IntN(10)]), randomTokens(ep, 3, cfg.Vocab)...)
			case 3:
				p = randomTokens(ep, 1+ep.IntN(8), cfg.Vocab) // shares nothing, or by chance a token
			}
			prompts = append(prompts, p)
		}
		for _, greedy := range []bool{false, true} {
			sc := SampleConfig{MaxNewTokens: 6, EOS: 2, Greedy: greedy}
			rngs := func() []*rand.Rand {
				var out []*rand.Rand
				for i := range prompts {
					out = append(out, rand.New(rand.NewPCG(9, uint64(i))))
				}
				return out
			}
			s := NewSampler(w)
			got, err := s.SampleEach(prompts, sc, rngs())
			require.NoError(t, err)
			require.Greater(t, s.SharedPromptTokens(), 5*19, "mode %v: the instructions' rows were shared", mode)
			alone := rngs()
			for i, p := range prompts {
				want, err := NewSampler(w).SampleEach([][]int{p}, sc, alone[i:i+1])
				require.NoError(t, err)
				require.Equal(t, want[0], got[i], "mode %v greedy %v prompt %d", mode, greedy, i)
			}
		}
	}
}

// A frozen sampler (a server's) samples what a fresh sampler samples, to
// the bit, over many calls whose prompts extend earlier ones, with
// NoLogProbs or without; NoLogProbs changes no token and leaves the
// log-probs 0. Freeze is a promise: a weight changed after it is not
// noticed (the rows computed before are still reused), which is why a
// trainer does not freeze; an unfrozen sampler drops them.
func TestSamplerFreezeAndNoLogProbs(t *testing.T) {
	cfg := Config{Vocab: 29, Context: 64, Layers: 2, DModel: 32, Heads: 2, TieEmbeddings: true}
	w := randomWeights(t, cfg, false, 5)
	frozen := NewSampler(w)
	frozen.Freeze()
	ep := rand.New(rand.NewPCG(5, 1))
	prompts := [][]int{{0, 7, 8, 1}, {0, 7, 9, 1}, {0, 10, 1}}
	for call := 0; call < 30; call++ {
		sc := SampleConfig{MaxNewTokens: 4, EOS: 2, Greedy: true}
		want, err := NewSampler(w).Sample(prompts, sc, nil)
		require.NoError(t, err)
		sc.NoLogProbs = call%2 == 0
		got, err := frozen.Sample(prompts, sc, nil)
		require.NoError(t, err)
		for i := range want {
			require.Equal(t, want[i].Tokens, got[i].Tokens, "call %d prompt %d", call, i)
			require.Equal(t, want[i].Stopped, got[i].Stopped)
			if sc.NoLogProbs {
				require.Equal(t, make([]float32, len(got[i].Tokens)), got[i].LogProbs)
			} else {
				require.Equal(t, want[i].LogProbs, got[i].LogProbs)
				require.Less(t, got[i].LogProbs[0], float32(0))
			}
		}
		for i, p := range prompts { // the next turn extends this one
			if len(p)+len(got[i].Tokens)+3 > cfg.Context-4 {
				prompts[i] = []int{0, 3 + ep.IntN(20), 1}
				continue
			}
			prompts[i] = append(append(slices.Clone(p), got[i].Tokens...), 3+ep.IntN(20), 1)
		}
	}
	reused, computed := frozen.PromptTokens()
	require.Greater(t, reused, computed)

	// the promise: after a weight change, the frozen sampler still reuses
	// the rows of the old weights, an unfrozen one drops them
	open := NewSampler(w)
	sc := SampleConfig{MaxNewTokens: 2, EOS: 2, Greedy: true}
	for _, s := range []*Sampler{frozen, open} {
		_, err := s.Sample(prompts, sc, nil)
		require.NoError(t, err)
	}
	w.Params[0].Data[0] += 1
	for _, s := range []*Sampler{frozen, open} {
		before, _ := s.PromptTokens()
		_, err := s.Sample(prompts, sc, nil)
		require.NoError(t, err)
		after, _ := s.PromptTokens()
		if s == frozen {
			require.Greater(t, after, before, "the frozen sampler reuses its rows")
		} else {
			require.Equal(t, before, after, "the unfrozen sampler drops its rows")
		}
	}
}
