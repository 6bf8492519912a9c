package policy

// graphCache holds the training graphs of a Trainer or Critic, one per
// (batch, length) shape, at most a limit of them: the least recently used
// is dropped first. A run with packed episodes meets a new shape whenever
// its minibatches' lengths or episode counts change; with one graph kept
// per shape, each with buffers of its own, GuessTheNumber-hard's process
// grew past 3 GB over 2,000 iterations. Now the graphs of a trainer take
// their float buffers from one shared slab (arena.go), so what a graph
// holds of its own is small (its token ids and per-row loss data, and
// Gorgonia's nodes), and the cache bounds how many such graphs there are.
// A graph whose buffers lie in a slab that has since grown is dropped too,
// so that the older slab is freed. Dropping a graph drops every reference
// to it (TestGraphCacheFreesEvicted checks with weak pointers that the
// collector frees it).
//
// A graph is a pure function of its shape and the weights, and it writes
// each buffer before reading it, so a rebuilt graph, or one whose slab
// another graph wrote in between, computes the same bits
// (TestGraphCacheSameNumbers).
type graphCache[T Float] []graphEntry[T] // least recently used first

type graphEntry[T Float] struct {
	key [2]int // batch, length
	g   *graph[T]
}

// defaultMaxGraphs bounds the graphs of one trainer or critic. Beside the
// shared slab a graph holds little of its own (the head's gathered rows,
// per-row loss data, token ids, Gorgonia's nodes): after 1,000 iterations
// of GuessTheNumber-hard the heap held 293 MB, 198 MB of it the policy's
// and the reference's slabs.
const defaultMaxGraphs = 64

// get returns the graph of shape (b, L), built by build when the cache
// does not hold it, after dropping the graphs of an outgrown slab and the
// least recently used ones down to limit − 1 (limit ≤ 0 means
// defaultMaxGraphs).
func (c *graphCache[T]) get(b, L, limit int, build func(b, L int) (*graph[T], error)) (*graph[T], error) {
	es := (*c)[:0]
	for _, e := range *c {
		if !e.g.mem.stale() {
			es = append(es, e)
		}
	}
	clear((*c)[len(es):]) // no stale reference in the backing array
	*c = es
	key := [2]int{b, L}
	for i, e := range es {
		if e.key == key {
			copy(es[i:], es[i+1:]) // most recently used last
			es[len(es)-1] = e
			return e.g, nil
		}
	}
	if limit <= 0 {
		limit = defaultMaxGraphs
	}
	if n := len(es) - (limit - 1); n > 0 {
		copy(es, es[n:])
		clear(es[len(es)-n:])
		es = es[:len(es)-n]
	}
	*c = es
	g, err := build(b, L)
	if err != nil {
		return nil, err
	}
	*c = append(es, graphEntry[T]{key: key, g: g})
	return g, nil
}
