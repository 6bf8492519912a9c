package policy

import (
	"fmt"
	"hash"
	"hash/fnv"

	"github.com/chewxy/hm"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// kernel is one fused operation of the training graph with a hand-written
// backward pass. Shapes are fixed when the graph is built. Data that is not
// differentiated (token ids, targets, advantages) lives in the kernel and is
// set before each run; only float tensors are graph inputs.
type kernel[T Float] interface {
	String() string
	// outShape is the output shape; an empty shape means a scalar.
	outShape() tensor.Shape
	// diffWRT says which of the n inputs get a gradient.
	diffWRT(n int) []bool
	// forward writes the output into out.
	forward(out []T, in [][]T)
	// backward writes the input gradients into dIn (nil where diffWRT is
	// false) given the output gradient dOut, overwriting every element: dIn
	// holds the previous run's values. It runs after forward on the same
	// inputs and may read what forward saved.
	backward(dIn [][]T, dOut, out []T, in [][]T)
}

// apply adds kernel k to the graph of inputs.
func apply[T Float](k kernel[T], inputs ...*G.Node) (*G.Node, error) {
	op := &fwdOp[T]{k: k}
	for _, n := range inputs {
		op.inDims = append(op.inDims, n.Dims())
		op.inSizes = append(op.inSizes, n.Shape().TotalSize())
	}
	n, err := G.ApplyOp(op, inputs...)
	if err != nil {
		return nil, fmt.Errorf("graph op %s: %w", k, err)
	}
	return n, nil
}

func tensorType(dims int) hm.Type {
	if dims == 0 {
		return hm.TypeVariable('a')
	}
	return G.TensorType{Dims: dims, Of: hm.TypeVariable('a')}
}

func hashOf(op fmt.Stringer, h hash.Hash) { fmt.Fprintf(h, "%s@%p", op.String(), op) }

func hashcode(op interface{ WriteHash(hash.Hash) }) uint32 {
	h := fnv.New32a()
	op.WriteHash(h)
	return h.Sum32()
}

// dataOf returns the elements of a graph value (a tensor or a scalar).
func dataOf[T Float](v G.Value) ([]T, error) {
	switch x := v.(type) {
	case *tensor.Dense:
		d, ok := x.Data().([]T)
		if !ok {
			return nil, fmt.Errorf("value of dtype %v: want %T", x.Dtype(), d)
		}
		return d, nil
	case *G.F32:
		return []T{T(*x)}, nil
	case *G.F64:
		return []T{T(*x)}, nil
	}
	return nil, fmt.Errorf("unsupported graph value %T", v)
}

func scalarValue[T Float](x T) G.Value {
	if f, ok := any(x).(float32); ok {
		return G.NewF32(f)
	}
	return G.NewF64(float64(x))
}

// fwdOp runs a kernel's forward pass; its output tensor is allocated once and
// reused by every run of the graph.
type fwdOp[T Float] struct {
	k       kernel[T]
	inDims  []int
	inSizes []int
	out     *tensor.Dense
	ins     [][]T
	mem     *carver[T] // where out is taken from; nil: its own
}

func (op *fwdOp[T]) Arity() int { return len(op.inDims) }
func (op *fwdOp[T]) Type() hm.Type {
	ts := make([]hm.Type, 0, len(op.inDims)+1)
	for _, d := range op.inDims {
		ts = append(ts, tensorType(d))
	}
	return hm.NewFnType(append(ts, tensorType(len(op.k.outShape())))...)
}
func (op *fwdOp[T]) InferShape(...G.DimSizer) (tensor.Shape, error) {
	return op.k.outShape().Clone(), nil
}
func (op *fwdOp[T]) ReturnsPtr() bool      { return false }
func (op *fwdOp[T]) CallsExtern() bool     { return false }
func (op *fwdOp[T]) OverwritesInput() int  { return -1 }
func (op *fwdOp[T]) WriteHash(h hash.Hash) { hashOf(op, h) }
func (op *fwdOp[T]) Hashcode() uint32      { return hashcode(op) }
func (op *fwdOp[T]) String() string        { return op.k.String() }
func (op *fwdOp[T]) DiffWRT(n int) []bool  { return op.k.diffWRT(n) }
func (op *fwdOp[T]) gatherInputs(vals []G.Value) error {
	op.ins = op.ins[:0]
	for i, v := range vals {
		d, err := dataOf[T](v)
		if err != nil {
			return fmt.Errorf("%s input %d: %w", op.k, i, err)
		}
		op.ins = append(op.ins, d)
	}
	return nil
}

func (op *fwdOp[T]) Do(vals ...G.Value) (G.Value, error) {
	if err := op.gatherInputs(vals); err != nil {
		return nil, err
	}
	shape := op.k.outShape()
	if len(shape) == 0 {
		var out [1]T
		op.k.forward(out[:], op.ins)
		return scalarValue(out[0]), nil
	}
	if op.out == nil {
		op.out = tensor.New(tensor.WithShape(shape.Clone()...), tensor.WithBacking(op.mem.take(shape.TotalSize())))
	}
	op.k.forward(op.out.Data().([]T), op.ins)
	return op.out, nil
}

func (op *fwdOp[T]) SymDiff(inputs G.Nodes, output, grad *G.Node) (G.Nodes, error) {
	diff := op.k.diffWRT(len(inputs))
	b := &bwdOp[T]{fwd: op, diff: diff}
	for i, d := range diff {
		if d {
			b.total += op.inSizes[i]
		}
	}
	children := append(append(G.Nodes{}, inputs...), output, grad)
	all, err := G.ApplyOp(b, children...)
	if err != nil {
		return nil, fmt.Errorf("backward of %s: %w", op.k, err)
	}
	ret := make(G.Nodes, len(inputs))
	off := 0
	for i, d := range diff {
		if !d {
			continue
		}
		v := &viewOp[T]{off: off, shape: inputs[i].Shape().Clone()}
		if ret[i], err = G.ApplyOp(v, all); err != nil {
			return nil, fmt.Errorf("gradient view of %s input %d: %w", op.k, i, err)
		}
		off += op.inSizes[i]
	}
	return ret, nil
}

// bwdOp runs a kernel's backward pass into one flat vector holding the
// gradients of all differentiable inputs, in input order.
type bwdOp[T Float] struct {
	fwd   *fwdOp[T]
	diff  []bool
	total int
	out   *tensor.Dense
	dIn   [][]T
	ins   [][]T
	mem   *carver[T] // where out is taken from; nil: its own
}

func (op *bwdOp[T]) Arity() int { return len(op.fwd.inDims) + 2 }
func (op *bwdOp[T]) Type() hm.Type {
	ts := make([]hm.Type, 0, len(op.fwd.inDims)+3)
	for _, d := range op.fwd.inDims {
		ts = append(ts, tensorType(d))
	}
	od := tensorType(len(op.fwd.k.outShape()))
	return hm.NewFnType(append(ts, od, od, tensorType(1))...)
}
func (op *bwdOp[T]) InferShape(...G.DimSizer) (tensor.Shape, error) {
	return tensor.Shape{op.total}, nil
}
func (op *bwdOp[T]) ReturnsPtr() bool      { return false }
func (op *bwdOp[T]) CallsExtern() bool     { return false }
func (op *bwdOp[T]) OverwritesInput() int  { return -1 }
func (op *bwdOp[T]) WriteHash(h hash.Hash) { hashOf(op, h) }
func (op *bwdOp[T]) Hashcode() uint32      { return hashcode(op) }
func (op *bwdOp[T]) String() string        { return "∂" + op.fwd.k.String() }

func (op *bwdOp[T]) Do(vals ...G.Value) (G.Value, error) {
	n := len(op.fwd.inDims)
	op.ins = op.ins[:0]
	for i, v := range vals[:n] {
		d, err := dataOf[T](v)
		if err != nil {
			return nil, fmt.Errorf("%s input %d: %w", op, i, err)
		}
		op.ins = append(op.ins, d)
	}
	out, err := dataOf[T](vals[n])
	if err != nil {
		return nil, fmt.Errorf("%s output: %w", op, err)
	}
	dOut, err := dataOf[T](vals[n+1])
	if err != nil {
		return nil, fmt.Errorf("%s output gradient: %w", op, err)
	}
	if op.out == nil {
		op.out = tensor.New(tensor.WithShape(op.total), tensor.WithBacking(op.mem.take(op.total)))
		all := op.out.Data().([]T)
		op.dIn = make([][]T, n)
		off := 0
		for i, d := range op.diff {
			if d {
				op.dIn[i] = all[off : off+op.fwd.inSizes[i]]
				off += op.fwd.inSizes[i]
			}
		}
	}
	op.fwd.k.backward(op.dIn, dOut, out, op.ins)
	return op.out, nil
}

// viewOp exposes one input's gradient inside a bwdOp's flat vector, without
// copying.
type viewOp[T Float] struct {
	off   int
	shape tensor.Shape
	view  *tensor.Dense
	base  []T
}

func (op *viewOp[T]) Arity() int    { return 1 }
func (op *viewOp[T]) Type() hm.Type { return hm.NewFnType(tensorType(1), tensorType(len(op.shape))) }
func (op *viewOp[T]) InferShape(...G.DimSizer) (tensor.Shape, error) {
	return op.shape.Clone(), nil
}
func (op *viewOp[T]) ReturnsPtr() bool      { return false }
func (op *viewOp[T]) CallsExtern() bool     { return false }
func (op *viewOp[T]) OverwritesInput() int  { return -1 }
func (op *viewOp[T]) WriteHash(h hash.Hash) { hashOf(op, h) }
func (op *viewOp[T]) Hashcode() uint32      { return hashcode(op) }
func (op *viewOp[T]) String() string        { return fmt.Sprintf("view[%d:%v]", op.off, op.shape) }

func (op *viewOp[T]) Do(vals ...G.Value) (G.Value, error) {
	all, err := dataOf[T](vals[0])
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	n := op.shape.TotalSize()
	if op.view == nil || &op.base[0] != &all[0] {
		op.base = all
		op.view = tensor.New(tensor.WithShape(op.shape.Clone()...), tensor.WithBacking(all[op.off:op.off+n]))
	}
	return op.view, nil
}
