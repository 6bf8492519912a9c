package policy

import (
	"math"
	"runtime"
)

// decoder is the plain-Go float32 forward pass over Weights with a per-layer
// key/value cache, used by the Sampler. Several sequences ("slots") are
// decoded together: each call feeds a packed run of tokens per slot at that
// slot's next positions.
type decoder struct {
	w      *Weights
	c      Config
	kcache [][]float32 // per layer: slots × context × d
	vcache [][]float32
	p      map[string][]float32
	layers []block[[]float32]
	// scratch, grown as needed
	x, h, q, k, v, a, f, t []float32
	mean, rstd             []float32
	scores                 []float32 // attention scores, one context-long row per worker
	offsets                []int     // first packed row of each span
}

// span is a run of tokens fed to one slot, starting at position start.
type span struct {
	slot, start int
	tokens      []int
	row         int // the sampler's prompt index
}

// grow returns b with length n, reallocating only when it is too short.
func grow[T Float](b []T, n int) []T {
	if cap(b) < n {
		return make([]T, n)
	}
	return b[:n]
}

// reset prepares the decoder for slots sequences over the current weights.
func (dc *decoder) reset(w *Weights, slots int) {
	dc.w, dc.c = w, w.Config
	c := dc.c
	if dc.p == nil {
		dc.p = map[string][]float32{}
	}
	for _, p := range w.Params {
		dc.p[p.Name] = p.Data
	}
	dc.layers = dc.layers[:0]
	for l := 0; l < c.Layers; l++ {
		dc.layers = append(dc.layers, loadBlock(l, c.DModel, func(name string) []float32 { return dc.p[name] }))
	}
	if len(dc.kcache) != c.Layers {
		dc.kcache, dc.vcache = make([][]float32, c.Layers), make([][]float32, c.Layers)
	}
	n := slots * c.Context * c.DModel
	for l := range dc.kcache {
		dc.kcache[l] = growKeep(dc.kcache[l], n)
		dc.vcache[l] = growKeep(dc.vcache[l], n)
	}
}

// growKeep is grow that keeps b's contents when it reallocates (the
// sampler's cached prefixes).
func growKeep(b []float32, n int) []float32 {
	if cap(b) < n {
		return append(b[:cap(b)], make([]float32, n-cap(b))...)
	}
	return b[:n]
}

// copyRows copies the cached keys and values of the first n positions of
// slot from into slot to, in every layer.
func (dc *decoder) copyRows(from, to, n int) {
	w := dc.c.Context * dc.c.DModel
	rows := n * dc.c.DModel
	for l := range dc.kcache {
		copy(dc.kcache[l][to*w:to*w+rows], dc.kcache[l][from*w:from*w+rows])
		copy(dc.vcache[l][to*w:to*w+rows], dc.vcache[l][from*w:from*w+rows])
	}
}

// forward runs the spans through the model, storing their keys and values in
// the cache, and returns the final hidden state (after the last layer norm)
// of every fed token, packed in span order (rows × d).
func (dc *decoder) forward(spans []span) []float32 {
	c := dc.c
	d, ctx := c.DModel, c.Context
	m := 0
	for _, s := range spans {
		m += len(s.tokens)
	}
	dc.x, dc.h = grow(dc.x, m*d), grow(dc.h, m*d)
	dc.q, dc.k, dc.v, dc.a = grow(dc.q, m*d), grow(dc.k, m*d), grow(dc.v, m*d), grow(dc.a, m*d)
	dc.f, dc.t = grow(dc.f, m*4*d), grow(dc.t, m*4*d)
	dc.mean, dc.rstd = grow(dc.mean, m), grow(dc.rstd, m)
	dc.scores = grow(dc.scores, runtime.GOMAXPROCS(0)*ctx)
	heads := c.Heads
	tok, pos := dc.p[paramTokEmb], dc.p[paramPosEmb]
	row := 0
	for _, s := range spans {
		for i, id := range s.tokens {
			o, te, pe := dc.x[row*d:(row+1)*d], tok[id*d:], pos[(s.start+i)*d:]
			for j := range o {
				o[j] = te[j] + pe[j]
			}
			row++
		}
	}
	x := dc.x
	for l := 0; l < c.Layers; l++ {
		lp := &dc.layers[l]
		layerNormFwd(dc.h, x, lp.ln1g, lp.ln1b, dc.mean, dc.rstd, m, d)
		linearFwd(dc.q, dc.h, lp.wq, lp.bq, m, d, d)
		linearFwd(dc.k, dc.h, lp.wk, lp.bk, m, d, d)
		linearFwd(dc.v, dc.h, lp.wv, lp.bv, m, d, d)
		kc, vc := dc.kcache[l], dc.vcache[l]
		dc.offsets = dc.offsets[:0]
		row = 0
		for _, s := range spans {
			dc.offsets = append(dc.offsets, row)
			base := s.slot * ctx * d
			copy(kc[base+s.start*d:], dc.k[row*d:(row+len(s.tokens))*d])
			copy(vc[base+s.start*d:], dc.v[row*d:(row+len(s.tokens))*d])
			row += len(s.tokens)
		}
		parallelFor(len(spans), func(lo, hi, w int) {
			sc := dc.scores[w*ctx : (w+1)*ctx]
			for j := lo; j < hi; j++ {
				s, r := spans[j], dc.offsets[j]
				base := s.slot * ctx * d
				for i := range s.tokens {
					attend(dc.a[(r+i)*d:(r+i+1)*d], dc.q[(r+i)*d:(r+i+1)*d], kc[base:], vc[base:], s.start+i, heads, sc)
				}
			}
		})
		linearFwd(dc.h, dc.a, lp.wo, lp.bo, m, d, d)
		for i := range x {
			x[i] += dc.h[i]
		}
		layerNormFwd(dc.h, x, lp.ln2g, lp.ln2b, dc.mean, dc.rstd, m, d)
		linearFwd(dc.t, dc.h, lp.w1, lp.b1, m, d, 4*d)
		geluFwd(dc.f, dc.t, nil)
		linearFwd(dc.h, dc.f, lp.w2, lp.b2, m, 4*d, d)
		for i := range x {
			x[i] += dc.h[i]
		}
	}
	layerNormFwd(dc.h, x, dc.p[paramLNFGain], dc.p[paramLNFBias], dc.mean, dc.rstd, m, d)
	return dc.h[:m*d]
}

// attend writes into out the multi-head attention of query q at position
// pos over the cached keys and values kc, vc of positions 0..pos (rows of
// width len(q)); sc is scratch of at least pos+1 scores.
func attend(out, q, kc, vc []float32, pos, heads int, sc []float32) {
	d := len(q)
	dh := d / heads
	scale := float32(1 / math.Sqrt(float64(dh)))
	sc = sc[:pos+1]
	fast := haveKernel && dh%8 == 0
	for h := 0; h < heads; h++ {
		qh := q[h*dh : (h+1)*dh]
		if fast {
			_ = kc[pos*d+(h+1)*dh-1] // bounds of the rows the kernels read
			_ = vc[pos*d+(h+1)*dh-1]
			dotScores(&qh[0], &kc[h*dh], &sc[0], pos+1, dh, d, scale)
			mx := sc[0]
			for _, s := range sc[1:] {
				mx = max(mx, s)
			}
			sum := expShifted(sc, mx)
			inv := 1 / sum
			for j := range sc {
				sc[j] *= inv
			}
			weightedRows(&sc[0], &vc[h*dh], &out[h*dh], pos+1, dh, d)
			continue
		}
		mx := float32(math.Inf(-1))
		for j := range sc {
			kj := kc[j*d+h*dh : j*d+(h+1)*dh]
			kj = kj[:len(qh)]
			var s0, s1 float32
			e := 0
			for ; e+1 < len(qh); e += 2 {
				s0 += qh[e] * kj[e]
				s1 += qh[e+1] * kj[e+1]
			}
			if e < len(qh) {
				s0 += qh[e] * kj[e]
			}
			s := (s0 + s1) * scale
			sc[j] = s
			mx = max(mx, s)
		}
		sum := expShifted(sc, mx)
		oh := out[h*dh : (h+1)*dh]
		clear(oh)
		inv := 1 / sum
		for j, pj := range sc {
			pj *= inv
			vj := vc[j*d+h*dh : j*d+(h+1)*dh]
			vj = vj[:len(oh)]
			for e := range oh {
				oh[e] += pj * vj[e]
			}
		}
	}
}

// logits writes the output projection of the hidden rows (n × d) into dst
// (n × vocab): hidden·wout + bout, or hidden·tok_embᵀ + bout with tied
// embeddings.
func (dc *decoder) logits(dst, hidden []float32, n int) {
	if dc.c.TieEmbeddings {
		linearFwdT(dst, hidden, dc.p[paramTokEmb], dc.p[paramBOut], n, dc.c.DModel, dc.c.Vocab)
		return
	}
	linearFwd(dst, hidden, dc.p[paramWOut], dc.p[paramBOut], n, dc.c.DModel, dc.c.Vocab)
}
