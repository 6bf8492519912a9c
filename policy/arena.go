package policy

// The graphs of one Trainer or Critic run one at a time, and a graph's
// float buffers (each kernel's output and input gradients, the attention
// probabilities, the MLP's pre-activations, the log-softmax, the layer
// norms' statistics) are needed only from the start of a run until its
// results are read, right after it: every run writes a buffer before it
// reads it (the rule kernel.backward states, forward alike). So the
// graphs of all shapes share one slab of memory: graph i's buffers are
// the slab's first floats, laid out in the order it takes them, as graph
// j's are. The slab is as large as the largest graph, not the sum of all
// graphs, however many shapes a run meets.

// slab is the float memory the graphs of one trainer share. gen counts
// its growths: a graph whose buffers lie in an older slab is dropped by
// graphCache, so that the older slab is freed.
type slab[T Float] struct {
	buf []T
	gen int
}

// carver hands out one graph's buffers from a slab, one after another, so
// that no two of the graph's buffers overlap.
type carver[T Float] struct {
	s     *slab[T] // nil: the graph allocates its own buffers
	off   int      // floats taken
	first int      // the slab generation its buffers lie in (set by reserve)
}

// reserve makes the slab hold at least n floats, the graph's whole need,
// before it takes any: growing allocates a new slab (a quarter larger than
// needed, so that a slightly larger graph later fits), and the graphs
// whose buffers lie in the older one become stale.
func (c *carver[T]) reserve(n int) {
	if c.s == nil {
		return
	}
	if len(c.s.buf) < n {
		c.s.buf = make([]T, n+n/4)
		c.s.gen++
	}
	c.first = c.s.gen
}

// take returns the graph's next n floats, after reserve: one graph's
// buffers never overlap.
func (c *carver[T]) take(n int) []T {
	if c == nil || c.s == nil {
		return make([]T, n)
	}
	out := c.s.buf[c.off : c.off+n : c.off+n]
	c.off += n
	return out
}

// stale reports whether the graph's buffers lie in a slab older than the
// current one: the graph holds that memory alive.
func (c *carver[T]) stale() bool { return c != nil && c.s != nil && c.first < c.s.gen }
