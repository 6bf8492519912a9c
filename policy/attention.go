package policy

import (
	"fmt"
	"math"
	"runtime"
	"sync"

	"gorgonia.org/tensor"
)

// attentionK is fused causal multi-head self-attention on projected queries,
// keys and values q, k, v, each (batch·length)×d with head h in columns
// h·dh .. (h+1)·dh. Position i attends to positions 0..i of its own
// sequence, except the keys its row of mask hides; sequences are
// right-padded, so real tokens never see padding. It saves the attention
// probabilities for the backward pass, where a hidden key's probability 0
// gives it no gradient.
type attentionK[T Float] struct {
	b, length, d, heads int
	mask                *rowMask // nil: plain causal attention
	p                   []T      // probabilities, (b, heads, length, length)
	scratch             [][]T
	packs               [][]float32 // per worker: one head's keys or values packed by packedNT
}

// rowMask hides keys lo[r] ≤ j < hi[r] (indices within the row's sequence)
// from row r of the batch; lo[r] = hi[r] hides none. A packed turn (see
// Branch) hides the rows between the prompt it shares and its own.
type rowMask struct{ lo, hi []int }

func newAttentionK[T Float](b, length, d, heads int, mask *rowMask) *attentionK[T] {
	return &attentionK[T]{b: b, length: length, d: d, heads: heads, mask: mask, p: make([]T, b*heads*length*length)}
}

func (k *attentionK[T]) String() string {
	return fmt.Sprintf("attention(b=%d,len=%d,d=%d,heads=%d)", k.b, k.length, k.d, k.heads)
}
func (k *attentionK[T]) outShape() tensor.Shape { return tensor.Shape{k.b * k.length, k.d} }
func (k *attentionK[T]) diffWRT(n int) []bool   { return []bool{true, true, true} }

func (k *attentionK[T]) forward(out []T, in [][]T) {
	q, kk, v := in[0], in[1], in[2]
	L, d, dh := k.length, k.d, k.d/k.heads
	scale := T(1 / math.Sqrt(float64(dh)))
	k.growPacks()
	parallelFor(k.b, func(lo, hi, w int) {
		for b := lo; b < hi; b++ {
			for h := 0; h < k.heads; h++ {
				off := b*L*d + h*dh
				p := k.p[(b*k.heads+h)*L*L : (b*k.heads+h+1)*L*L]
				kp := packedNT(&k.packs[w], kk[off:], d, L, dh)
				for r0 := 0; r0 < L; r0 += causalRows {
					r1 := min(L, r0+causalRows)
					// S = scale·Q·Kᵀ, P = softmax(S) and O = P·V for rows r0..r1,
					// which see keys 0..r1 only
					gemmNT(r1-r0, r1, dh, scale, q[off+r0*d:], d, kk[off:], d, kp, 0, p[r0*L:], L)
					for i := r0; i < r1; i++ {
						if lo, hi := k.hidden(b*L + i); lo < hi {
							maskedSoftmax(p[i*L:(i+1)*L], i, lo, hi)
						} else {
							causalSoftmax(p[i*L:(i+1)*L], i)
						}
					}
					gemm(false, false, r1-r0, dh, r1, 1, p[r0*L:], L, v[off:], d, 0, out[off+r0*d:], d)
				}
			}
		}
	})
}

// causalRows is the row chunk of the attention products: a chunk of rows
// i0..i1 multiplies by keys 0..i1 only (or, transposed, by rows ≥ i0), so
// the masked triangle is mostly skipped. The skipped terms are exact
// zeros at the start or the end of each sum, so no value changes.
const causalRows = 12

// causalSoftmax replaces row[0..i] by its softmax and zeroes row[i+1:].
func causalSoftmax[T Float](row []T, i int) {
	mx := row[0]
	for _, s := range row[1 : i+1] {
		if s > mx {
			mx = s
		}
	}
	inv := 1 / expShifted(row[:i+1], mx)
	for j := 0; j <= i; j++ {
		row[j] *= inv
	}
	clear(row[i+1:])
}

// hidden is the range of keys row r may not see (empty when lo ≥ hi).
func (k *attentionK[T]) hidden(r int) (lo, hi int) {
	if k.mask == nil {
		return 0, 0
	}
	return k.mask.lo[r], k.mask.hi[r]
}

// maskedSoftmax is causalSoftmax with keys lo..hi−1 also zeroed: row[0..lo)
// and row[hi..i] share one softmax. It needs 0 < lo < hi ≤ i.
func maskedSoftmax[T Float](row []T, i, lo, hi int) {
	a, b := row[:lo], row[hi:i+1]
	mx := a[0]
	for _, s := range a[1:] {
		mx = max(mx, s)
	}
	for _, s := range b {
		mx = max(mx, s)
	}
	inv := 1 / (expShifted(a, mx) + expShifted(b, mx))
	for j := range a {
		a[j] *= inv
	}
	for j := range b {
		b[j] *= inv
	}
	clear(row[lo:hi])
	clear(row[i+1:])
}

func (k *attentionK[T]) backward(dIn [][]T, dOut, _ []T, in [][]T) {
	q, kk, v := in[0], in[1], in[2]
	dq, dk, dv := dIn[0], dIn[1], dIn[2]
	L, d, dh := k.length, k.d, k.d/k.heads
	scale := T(1 / math.Sqrt(float64(dh)))
	workers := runtime.GOMAXPROCS(0)
	for len(k.scratch) < workers {
		k.scratch = append(k.scratch, make([]T, L*L))
	}
	k.growPacks()
	parallelFor(k.b, func(lo, hi, w int) {
		dp := k.scratch[w]
		for b := lo; b < hi; b++ {
			for h := 0; h < k.heads; h++ {
				off := b*L*d + h*dh
				p := k.p[(b*k.heads+h)*L*L : (b*k.heads+h+1)*L*L]
				vp := packedNT(&k.packs[w], v[off:], d, L, dh)
				// dP = dO·Vᵀ (row i needs columns 0..i), dV = Pᵀ·dO (row j
				// sums over rows i ≥ j of P)
				for r0 := 0; r0 < L; r0 += causalRows {
					r1 := min(L, r0+causalRows)
					gemmNT(r1-r0, r1, dh, 1, dOut[off+r0*d:], d, v[off:], d, vp, 0, dp[r0*L:], L)
					gemm(true, false, r1-r0, dh, L-r0, 1, p[r0*L+r0:], L, dOut[off+r0*d:], d, 0, dv[off+r0*d:], d)
				}
				// dS = P ⊙ (dP − rowsum(P ⊙ dP))
				for i := 0; i < L; i++ {
					pr, dr := p[i*L:i*L+i+1], dp[i*L:i*L+i+1]
					var s T
					for j, x := range pr {
						s += x * dr[j]
					}
					for j, x := range pr {
						dr[j] = x * (dr[j] - s)
					}
					clear(dp[i*L+i+1 : (i+1)*L])
				}
				// dQ = scale·dS·K, dK = scale·dSᵀ·Q, over the causal triangle
				for r0 := 0; r0 < L; r0 += causalRows {
					r1 := min(L, r0+causalRows)
					gemm(false, false, r1-r0, dh, r1, scale, dp[r0*L:], L, kk[off:], d, 0, dq[off+r0*d:], d)
					gemm(true, false, r1-r0, dh, L-r0, scale, dp[r0*L+r0:], L, q[off+r0*d:], d, 0, dk[off+r0*d:], d)
				}
			}
		}
	})
}

// growPacks gives every worker of parallelFor its packing buffer.
func (k *attentionK[T]) growPacks() {
	for len(k.packs) < runtime.GOMAXPROCS(0) {
		k.packs = append(k.packs, nil)
	}
}

// packedNT packs the transpose of b's first n rows (n×k) into *dst for
// gemmNT and returns it, or returns nil where gemmNT multiplies through
// gemm instead (float64, no AVX2, the openblas build). Causal attention
// multiplies every chunk of rows by a prefix of the same keys (or values),
// so one packing per head serves all chunks.
func packedNT[T Float](dst *[]float32, b []T, ldb, n, k int) []float32 {
	bf, ok := any(b).([]float32)
	if !ok || !ownKernels() || k > kcBlock {
		return nil
	}
	*dst = packNT(*dst, bf, ldb, n, k)
	return *dst
}

// gemmNT computes c = alpha·a·bᵀ + beta·c for a (m×k) and b's first n
// rows: from bp, b packed by packedNT, when it is not nil (the same bits),
// else through gemm.
func gemmNT[T Float](m, n, k int, alpha T, a []T, lda int, b []T, ldb int, bp []float32, beta T, c []T, ldc int) {
	if bp != nil {
		sgemmPackedNT(m, n, k, float32(alpha), any(a).([]float32), lda, bp, float32(beta), any(c).([]float32), ldc)
		return
	}
	gemm(false, true, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// parallelFor splits 0..n into up to GOMAXPROCS contiguous chunks and runs
// f(lo, hi, worker) on each in its own goroutine.
func parallelFor(n int, f func(lo, hi, worker int)) {
	w := min(runtime.GOMAXPROCS(0), n)
	if w <= 1 {
		f(0, n, 0)
		return
	}
	var wg sync.WaitGroup
	for i := 0; i < w; i++ {
		lo, hi := i*n/w, (i+1)*n/w
		wg.Add(1)
		go func() {
			defer wg.Done()
			f(lo, hi, i)
		}()
	}
	wg.Wait()
}
