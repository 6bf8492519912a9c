package policy

import (
	"fmt"
	"runtime"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// graph is the training graph of one bucket shape: batch × length tokens
// (right-padded), a decoder-only pre-LN transformer (token + position
// embeddings; per block LN → causal multi-head attention → residual and
// LN → tanh-GELU MLP of width 4d → residual; final LN) and either the policy
// head (output projection and the fused policy loss) or the critic head (a
// scalar value projection and the value loss). It is built once and rerun
// with new token ids, targets and loss data.
type graph[T Float] struct {
	cfg       Config
	b, length int
	g         *G.ExprGraph
	params    []*G.Node // aligned with the network's parameters
	grads     G.Nodes
	embed     *embedK[T]
	mask      *rowMask        // keys hidden from packed turns (policy graphs)
	loss      *policyLossK[T] // policy graphs
	vloss     *valueLossK[T]  // critic graphs
	cost      *G.Node
	vm        G.VM // forward and backward
	fwd       G.VM // forward only, built on first use
	mem       *carver[T]
}

func dtypeOf[T Float]() tensor.Dtype {
	var x T
	if _, ok := any(x).(float32); ok {
		return tensor.Float32
	}
	return tensor.Float64
}

// newGraph builds the graph for b sequences of length tokens over the
// parameters params (data aligned with w.Params; the graph reads them in
// place). critic selects the value head. The graph's float buffers are its
// own.
func newGraph[T Float](w *Weights, params [][]T, b, length int, critic bool) (*graph[T], error) {
	return newGraphIn(w, params, b, length, critic, nil)
}

// newGraphIn is newGraph with the float buffers taken from mem, which the
// graphs of one trainer share (arena.go); nil: the graph's own.
func newGraphIn[T Float](w *Weights, params [][]T, b, length int, critic bool, mem *slab[T]) (*graph[T], error) {
	c := w.Config
	if length > MaxPackedLen(c.Context) {
		return nil, fmt.Errorf("graph length %d exceeds 4 × model.context %d", length, c.Context)
	}
	gr := &graph[T]{cfg: c, b: b, length: length, g: G.NewGraph(), mem: &carver[T]{s: mem, first: -1}}
	byName := map[string]*G.Node{}
	dt := dtypeOf[T]()
	for i, p := range w.Params {
		shape := append([]int(nil), p.Shape...)
		val := tensor.New(tensor.WithShape(shape...), tensor.WithBacking(params[i]))
		n := G.NewTensor(gr.g, dt, len(shape), G.WithShape(shape...), G.WithName(p.Name), G.WithValue(val))
		gr.params = append(gr.params, n)
		byName[p.Name] = n
	}
	P := func(name string) *G.Node { return byName[name] }
	n, d := b*length, c.DModel
	var err error
	must := func(x *G.Node, e error) *G.Node {
		if err == nil && e != nil {
			err = e
		}
		return x
	}
	gr.embed = &embedK[T]{n: n, d: d, length: length, ids: make([]int, n)}
	if !critic {
		gr.embed.pos = make([]int, n)
		gr.mask = &rowMask{lo: make([]int, n), hi: make([]int, n)}
	} else if length > c.Context {
		return nil, fmt.Errorf("critic graph length %d exceeds model.context %d", length, c.Context)
	}
	x := must(apply[T](gr.embed, P(paramTokEmb), P(paramPosEmb))) // (n, d)
	shape := tensor.Shape{n, d}
	for l := 0; l < c.Layers; l++ {
		p := loadBlock(l, d, P)
		h := must(apply[T](newLayerNormK[T](n, d), x, p.ln1g, p.ln1b))
		q := must(apply[T](newLinearK[T](n, d, d, false), h, p.wq, p.bq)) // (n, d), heads side by side
		k := must(apply[T](newLinearK[T](n, d, d, false), h, p.wk, p.bk))
		v := must(apply[T](newLinearK[T](n, d, d, false), h, p.wv, p.bv))
		a := must(apply[T](newAttentionK[T](b, length, d, c.Heads, gr.mask), q, k, v))
		o := must(apply[T](newLinearK[T](n, d, d, false), a, p.wo, p.bo))
		x = must(apply[T](&addK[T]{shape}, x, o))
		h = must(apply[T](newLayerNormK[T](n, d), x, p.ln2g, p.ln2b))
		f := must(apply[T](newLinearK[T](n, d, 4*d, true), h, p.w1, p.b1)) // (n, 4d)
		f = must(apply[T](newLinearK[T](n, 4*d, d, false), f, p.w2, p.b2))
		x = must(apply[T](&addK[T]{shape}, x, f))
	}
	x = must(apply[T](newLayerNormK[T](n, d), x, P(paramLNFGain), P(paramLNFBias)))
	if critic {
		v := must(apply[T](newLinearK[T](n, d, 1, false), x, P(paramVHeadW), P(paramVHeadB))) // (n, 1)
		gr.vloss = &valueLossK[T]{n: n}
		gr.cost = must(apply[T](gr.vloss, v))
	} else {
		gr.loss = newPolicyLossK[T](n, c.Vocab)
		wout := P(paramWOut) // (d, vocab)
		if c.TieEmbeddings {
			// (vocab, d), read transposed: the node feeds the embedding
			// too, and Gorgonia sums the two gradients.
			wout = P(paramTokEmb)
		}
		logits := must(apply[T](newHeadK[T](n, d, c.Vocab, c.TieEmbeddings, gr.loss.target), x, wout, P(paramBOut))) // (n, vocab), loss rows only
		gr.cost = must(apply[T](gr.loss, logits))
	}
	if err != nil {
		return nil, fmt.Errorf("build graph %dx%d: %w", b, length, err)
	}
	if gr.grads, err = G.Grad(gr.cost, gr.params...); err != nil {
		return nil, fmt.Errorf("differentiate graph %dx%d: %w", b, length, err)
	}
	gr.vm = newTape(gr.g)
	gr.share()
	return gr, nil
}

// newTape is G.NewTapeMachine without the finalizer gorgonia sets on
// every machine (a no-op outside its cuda build): the machine reaches the
// graph's ops, whose kernels reach the graph that holds the machine, and
// the collector never frees a cycle with a finalizer in it, so every
// graph, with its trainer and slab, stayed in memory for good (a
// cmd/compare process of 24 Mastermind runs grew to 11 GB;
// TestDroppedTrainerIsFreed).
func newTape(g *G.ExprGraph, opts ...G.VMOpt) G.VM {
	m := G.NewTapeMachine(g, opts...)
	runtime.SetFinalizer(m, nil)
	return m
}

// share points the graph's kernels at its carver: the outputs and
// gradients they allocate at the first run, and, with a shared slab, the
// buffers their constructors made (those become garbage once, at build).
// The slab is first grown to the graph's whole need.
func (gr *graph[T]) share() {
	need := 0
	for _, n := range gr.g.AllNodes() {
		switch op := n.Op().(type) {
		case *fwdOp[T]:
			need += op.k.outShape().TotalSize() + adoptBuffers(op.k, nil)
		case *bwdOp[T]:
			need += op.total
		}
	}
	gr.mem.reserve(need)
	for _, n := range gr.g.AllNodes() {
		switch op := n.Op().(type) {
		case *fwdOp[T]:
			op.mem = gr.mem
			if gr.mem.s != nil {
				adoptBuffers(op.k, gr.mem)
			}
		case *bwdOp[T]:
			op.mem = gr.mem
		}
	}
}

// adoptBuffers moves the float buffers a kernel's constructor made into
// mem and returns how many floats they hold (with mem nil, it only
// counts). The kernels not listed keep their own (small, or grown at run
// time).
func adoptBuffers[T Float](k kernel[T], mem *carver[T]) int {
	var bufs []*[]T
	switch k := k.(type) {
	case *layerNormK[T]:
		bufs = []*[]T{&k.mean, &k.rstd}
	case *linearK[T]:
		if k.gelu {
			bufs = []*[]T{&k.pre, &k.dpre, &k.th}
		}
	case *attentionK[T]:
		bufs = []*[]T{&k.p}
	case *policyLossK[T]:
		bufs = []*[]T{&k.lp}
	}
	n := 0
	for _, b := range bufs {
		n += len(*b)
		if mem != nil {
			*b = mem.take(len(*b))
		}
	}
	return n
}

// rebind points the parameter nodes at params again if a slice was
// replaced (a loaded checkpoint, SetState).
func (gr *graph[T]) rebind(params [][]T) error {
	for i, n := range gr.params {
		cur := n.Value().Data().([]T)
		if len(cur) > 0 && &cur[0] == &params[i][0] {
			continue
		}
		val := tensor.New(tensor.WithShape(n.Shape().Clone()...), tensor.WithBacking(params[i]))
		if err := G.Let(n, val); err != nil {
			return fmt.Errorf("rebind %s: %w", n.Name(), err)
		}
	}
	return nil
}

// run executes the forward pass, and the backward pass when backward is set.
func (gr *graph[T]) run(params [][]T, backward bool) error {
	if err := gr.rebind(params); err != nil {
		return err
	}
	vm := gr.vm
	if !backward {
		if gr.fwd == nil {
			prog, locs, err := G.CompileFunction(gr.g, gr.params, G.Nodes{gr.cost})
			if err != nil {
				return fmt.Errorf("compile forward graph: %w", err)
			}
			gr.fwd = newTape(gr.g, G.WithPrecompiled(prog, locs))
		}
		vm = gr.fwd
	}
	vm.Reset()
	if err := vm.RunAll(); err != nil {
		return fmt.Errorf("run graph %dx%d: %w", gr.b, gr.length, err)
	}
	return nil
}

// costValue is the scalar loss of the last run.
func (gr *graph[T]) costValue() float64 {
	d, _ := dataOf[T](gr.cost.Value())
	return float64(d[0])
}

// grad is the gradient of parameter i from the last backward run.
func (gr *graph[T]) grad(i int) []T {
	return gr.grads[i].Value().Data().([]T)
}
