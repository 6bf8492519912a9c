package policy

import (
	"fmt"

	"gorgonia.org/tensor"
)

// headK is the output projection x (n×in) · w (in×out) + b (out), or with
// tied embeddings x · wᵀ + b where w is tok_emb (out×in), computed only at
// the rows the policy loss reads: those whose target is ≥ 0. In an
// RL step the prompt and padding rows carry no loss, and a response is a
// few tokens after a prompt of tens, so most of the projection and of the
// log-softmax over the vocabulary would be spent on rows nobody reads. The rows are gathered into compact
// buffers, projected with one gemm, and scattered back. The other rows of
// the output are left as they are: the policy loss, the output's only
// reader, reads target rows only (and writes no gradient for the others).
type headK[T Float] struct {
	n, in, out int
	tied       bool  // w is out×in and applied transposed (Config.TieEmbeddings)
	target     []int // the loss's targets, shared with it and filled before each run
	rows       []int // the rows computed by the last forward
	xc, yc     []T   // gathered inputs (m×in) and their logits (m×out)
	dyc, dxc   []T   // gathered output gradients (m×out), input gradients (m×in)
}

func newHeadK[T Float](n, in, out int, tied bool, target []int) *headK[T] {
	return &headK[T]{n: n, in: in, out: out, tied: tied, target: target, rows: make([]int, 0, n)}
}

func (k *headK[T]) String() string {
	if k.tied {
		return fmt.Sprintf("tiedhead(%d,%d,%d)", k.n, k.in, k.out)
	}
	return fmt.Sprintf("head(%d,%d,%d)", k.n, k.in, k.out)
}
func (k *headK[T]) outShape() tensor.Shape { return tensor.Shape{k.n, k.out} }
func (k *headK[T]) diffWRT(n int) []bool   { return []bool{true, true, true} }

func (k *headK[T]) forward(out []T, in [][]T) {
	x, w, b := in[0], in[1], in[2]
	k.rows = k.rows[:0]
	for i, t := range k.target {
		if t >= 0 {
			k.rows = append(k.rows, i)
		}
	}
	m := len(k.rows)
	switch m {
	case 0:
		return
	case k.n: // every row is read (a supervised step): no gather
		k.project(out, x, w, b, k.n)
		return
	}
	k.xc, k.yc = grow(k.xc, m*k.in), grow(k.yc, m*k.out)
	gatherRows(k.xc, x, k.rows, k.in)
	k.project(k.yc, k.xc, w, b, m)
	scatterRows(out, k.yc, k.rows, k.out)
}

func (k *headK[T]) backward(dIn [][]T, dOut, _ []T, in [][]T) {
	dx, dw, db := dIn[0], dIn[1], dIn[2]
	m := len(k.rows)
	switch m {
	case 0:
		clear(dx)
		clear(dw)
		clear(db)
		return
	case k.n:
		k.projectBwd(dx, dw, db, dOut, in[0], in[1], k.n)
		return
	}
	clear(dx)
	k.dyc, k.dxc = grow(k.dyc, m*k.out), grow(k.dxc, m*k.in)
	gatherRows(k.dyc, dOut, k.rows, k.out)
	k.projectBwd(k.dxc, dw, db, k.dyc, k.xc, in[1], m)
	scatterRows(dx, k.dxc, k.rows, k.in)
}

// project writes the logits of m rows x into y.
func (k *headK[T]) project(y, x, w, b []T, m int) {
	if k.tied {
		linearFwdT(y, x, w, b, m, k.in, k.out)
		return
	}
	linearFwd(y, x, w, b, m, k.in, k.out)
}

// projectBwd writes the gradients of project given dy.
func (k *headK[T]) projectBwd(dx, dw, db, dy, x, w []T, m int) {
	if k.tied {
		linearBwdT(dx, dw, db, dy, x, w, m, k.in, k.out)
		return
	}
	linearBwd(dx, dw, db, dy, x, w, m, k.in, k.out)
}

// gatherRows copies rows[j] of src (rows of width w) to row j of dst.
func gatherRows[T Float](dst, src []T, rows []int, w int) {
	for j, i := range rows {
		copy(dst[j*w:(j+1)*w], src[i*w:(i+1)*w])
	}
}

// scatterRows copies row j of src to rows[j] of dst (rows of width w).
func scatterRows[T Float](dst, src []T, rows []int, w int) {
	for j, i := range rows {
		copy(dst[i*w:(i+1)*w], src[j*w:(j+1)*w])
	}
}
