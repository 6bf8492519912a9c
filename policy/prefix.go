package policy

import "math"

// The sampler keeps, between calls, the keys and values its decoder
// computed: each slot of the cache remembers the tokens it holds. A new
// prompt that starts with tokens a slot holds (an episode's next turn whose
// prompt extends the previous one, a chat's next message) reuses those rows
// and feeds only the rest, as a serving engine's prefix cache does. A key or
// value row depends only on the tokens up to it and their positions, and the
// decoder computes each row the same way however the tokens are split into
// calls (checked bit for bit in the tests), so reuse changes no number. The
// rows are dropped when the weights change (a fingerprint of every weight
// is compared at each call, at the first only after Sampler.Freeze) and by
// LogProbs, which shares the decoder.

// prefixCache is what the decoder's cache slots hold.
type prefixCache struct {
	slots  [][]int // per cache slot: the tokens whose rows it holds; nil: free
	fp     uint64  // fingerprint of the weights the rows were computed with
	config Config
	valid  bool
	frozen bool // Sampler.Freeze: the weights are fingerprinted once
	// counts over the sampler's life: prompt tokens whose rows an earlier
	// call computed, and the others; of those, the ones copied from another
	// prompt of the same call (share)
	reused, computed, shared int
}

// rowCopy copies the first n rows of cache slot from into slot to.
type rowCopy struct{ from, to, n int }

// fingerprint hashes every weight's bits: FNV-1a over 32-bit words in
// four interleaved lanes (word i feeds lane i mod 4, so that the lanes'
// multiplications overlap; one lane's chain of dependent multiplications
// made this a sixth of a small model's serving time), then the lanes
// hashed together. Any change to the weights changes it but with
// probability about 2⁻⁶⁴.
func fingerprint(w *Weights) uint64 {
	const offset, prime = 14695981039346656037, 1099511628211
	h := [4]uint64{offset, offset ^ 1, offset ^ 2, offset ^ 3}
	for _, p := range w.Params {
		d := p.Data
		i := 0
		for ; i+4 <= len(d); i += 4 {
			h[0] = (h[0] ^ uint64(math.Float32bits(d[i]))) * prime
			h[1] = (h[1] ^ uint64(math.Float32bits(d[i+1]))) * prime
			h[2] = (h[2] ^ uint64(math.Float32bits(d[i+2]))) * prime
			h[3] = (h[3] ^ uint64(math.Float32bits(d[i+3]))) * prime
		}
		for ; i < len(d); i++ {
			h[i%4] = (h[i%4] ^ uint64(math.Float32bits(d[i]))) * prime
		}
	}
	out := uint64(offset)
	for _, x := range h {
		out = (out ^ x) * prime
	}
	return out
}

// check drops every slot unless the weights are those the rows were
// computed with.
func (pc *prefixCache) check(w *Weights) {
	if pc.frozen && pc.valid && w.Config == pc.config {
		return
	}
	fp := fingerprint(w)
	if !pc.valid || fp != pc.fp || w.Config != pc.config {
		pc.slots = pc.slots[:0]
	}
	pc.fp, pc.config, pc.valid = fp, w.Config, true
}

// drop forgets every slot's contents.
func (pc *prefixCache) drop() { pc.slots = pc.slots[:0] }

// commonPrefix is the length of the common prefix of a and b, at most n.
func commonPrefix(a, b []int, n int) int {
	n = min(n, len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// assign places each prompt in a cache slot: slot[i] is where prompt i is
// decoded and start[i] how many of its first tokens are already there
// (always fewer than its length: the last prompt token is fed to get the
// next token's logits). A prompt takes the slot holding its longest prefix
// when no earlier prompt took it; otherwise it gets a free slot, into which
// copies bring that prefix (copies read only slots taken in place, so they
// may all run before the decoder writes anything). slots is the number of
// cache slots needed.
func (pc *prefixCache) assign(prompts [][]int) (slot, start []int, copies []rowCopy, slots int) {
	slot, start = make([]int, len(prompts)), make([]int, len(prompts))
	taken := make([]bool, len(pc.slots))
	type later struct{ i, from, n int }
	var rest []later
	for i, p := range prompts {
		best, n := -1, 0
		for j, held := range pc.slots {
			if held == nil {
				continue
			}
			l := commonPrefix(held, p, len(p)-1)
			if l > n || (l == n && l > 0 && taken[best] && !taken[j]) {
				best, n = j, l
			}
		}
		if n > 0 && !taken[best] {
			taken[best] = true
			slot[i], start[i] = best, n
			continue
		}
		rest = append(rest, later{i, best, n})
	}
	free := 0
	for _, r := range rest {
		for free < len(taken) && taken[free] {
			free++
		}
		slot[r.i], start[r.i] = free, r.n
		if r.n > 0 {
			copies = append(copies, rowCopy{from: r.from, to: free, n: r.n})
		}
		free++
	}
	for _, s := range slot {
		slots = max(slots, s+1)
	}
	for i, p := range prompts {
		pc.reused += start[i]
		pc.computed += len(p) - start[i]
	}
	return slot, start, copies, slots
}

// remember records what each slot holds after a call: slot[i] holds
// prompt i and the tokens of response i fed back (all but the last).
func (pc *prefixCache) remember(slots int, slot []int, prompts [][]int, out []Sample) {
	held := make([][]int, slots)
	for i, p := range prompts {
		t := out[i].Tokens
		held[slot[i]] = append(append(make([]int, 0, len(p)+len(t)), p...), t[:max(len(t)-1, 0)]...)
	}
	pc.slots = held
}

// share plans the sharing of prompt prefixes within one call, beyond what
// the cache gave (start, from assign): prompts that begin with the same
// tokens (a batch of requests with one set of instructions, the first
// turns of a round of episodes) compute those tokens' rows once. A prompt
// whose longest common prefix with an earlier leader (a prompt that
// follows no other) is longer than its start follows that leader;
// otherwise it leads. need[i] is how many of leader i's first tokens
// must be decoded before the others copy them (0: none beyond its start;
// always fewer than its length, so that the sampling loop still feeds its
// last token), and follow[i] the leader prompt i copies its first n
// tokens' rows from (lead −1: none). Sharing changes no number: a row's
// keys and values depend only on the tokens up to it, computed the same
// way however the tokens are split (TestSamplerSharesWithinCall).
func share(prompts [][]int, start []int) (need []int, follow []leader) {
	need, follow = make([]int, len(prompts)), make([]leader, len(prompts))
	var leads []int
	for i, p := range prompts {
		follow[i] = leader{lead: -1}
		best, n := -1, start[i]
		for _, j := range leads {
			if l := commonPrefix(prompts[j], p, min(len(p), len(prompts[j]))-1); l > n {
				best, n = j, l
			}
		}
		if best < 0 {
			leads = append(leads, i)
			continue
		}
		follow[i] = leader{lead: best, n: n}
		need[best] = max(need[best], n)
	}
	return need, follow
}

// leader is where a prompt copies its first n tokens' rows from: the slot
// of prompt lead, once that prompt's first n tokens are decoded.
type leader struct{ lead, n int }
