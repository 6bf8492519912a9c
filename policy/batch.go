package policy

import (
	"fmt"
	"math"
)

// Sequence is one training example: a prompt and the response the policy
// wrote after it, with per-response-token data.
//
// Branches pack earlier turns of the same episode into the sequence: when
// a turn's prompt is the start of Prompt followed by a few tokens of its
// own (a history prompt grows by the new observation, so the turn before
// read the same text up to its closing SEP), the turn is computed in this
// sequence's slot of the batch, reading the shared tokens once. Each
// branch's tokens sit at the positions they had alone and attend only to
// Prompt[:Prefix] and to themselves, so its log-probs, loss and gradients
// are those of the turn trained as a sequence of its own (up to float
// rounding): packing changes the cost, not the math.
type Sequence struct {
	Prompt      []int     // BOS ... SEP; carries no loss
	Response    []int     // action tokens ... EOS
	Advantages  []float32 // per response token
	OldLogProbs []float32 // per response token: the sampling policy's (needed by the clipped loss)
	RefLogProbs []float32 // optional: a reference policy's, for the KL penalty
	Branches    []Branch  // earlier turns packed beside this one; nil for a plain sequence
}

// Branch is a turn packed into a Sequence: its prompt is the sequence's
// Prompt[:Prefix] followed by Tail, and it wrote Response. Its
// per-response-token data mean what the Sequence's do.
type Branch struct {
	Prefix      int   // shared prompt tokens, [1, len(Prompt)]
	Tail        []int // the rest of its prompt (at least its SEP)
	Response    []int
	Advantages  []float32
	OldLogProbs []float32
	RefLogProbs []float32
}

// inputs is the number of graph positions s fills: every token but the
// last of each turn, which is only a target.
func (s *Sequence) inputs() int {
	n := len(s.Prompt) + len(s.Response) - 1
	for i := range s.Branches {
		n += s.Branches[i].inputs()
	}
	return n
}

func (br *Branch) inputs() int { return len(br.Tail) + len(br.Response) - 1 }

// turns is the number of turns s trains: itself and its branches.
func (s *Sequence) turns() int { return 1 + len(s.Branches) }

// responseTokens counts the response tokens of s and its branches.
func (s *Sequence) responseTokens() int {
	n := len(s.Response)
	for i := range s.Branches {
		n += len(s.Branches[i].Response)
	}
	return n
}

// MaxPackedLen is the most graph rows a packed sequence may fill for a model
// of the given context: positions stay below the context, rows may reach
// this many.
func MaxPackedLen(context int) int { return 4 * context }

// minBucketLen is the shortest length bucket; buckets double up to
// stepBucketLen, then grow by stepBucketLen up to the model's context, so
// that a 40-token sequence pads to 48 rather than 64 (multi-turn prompts
// grow by a few tokens a turn). maxChunkTokens caps batch·length of one graph
// run; larger minibatches run in several chunks with accumulated gradients.
const (
	minBucketLen   = 8
	stepBucketLen  = 16
	maxChunkTokens = 4096
)

// bucketLen is the graph length for sequences of n input tokens; a packed
// sequence longer than the context rounds up to a multiple of
// stepBucketLen.
func bucketLen(n, context int) int {
	if n > context {
		return (n + stepBucketLen - 1) / stepBucketLen * stepBucketLen
	}
	l := minBucketLen
	for l < n && l < stepBucketLen {
		l *= 2
	}
	for l < n {
		l += stepBucketLen
	}
	return min(l, context)
}

// bucketBatch is the graph batch size for n sequences (a power of two).
func bucketBatch(n int) int {
	b := 1
	for b < n {
		b *= 2
	}
	return b
}

// packedBatch is the graph batch size for n sequences of which some are
// packed: a multiple of 4, not a power of two, since a minibatch of whole
// episodes holds any number of them and each padding row is a whole
// sequence's work. (Unpacked batches keep bucketBatch, so their graphs,
// and their float sums, stay as they were.)
func packedBatch(n int) int { return (n + 3) / 4 * 4 }

// hasBranches reports whether any sequence of batch is packed.
func hasBranches(batch []Sequence) bool {
	for i := range batch {
		if len(batch[i].Branches) > 0 {
			return true
		}
	}
	return false
}

// checkSequence validates one sequence, and its branches, against the
// model shape.
func checkSequence(i int, s *Sequence, c Config) error {
	if len(s.Prompt) == 0 {
		return fmt.Errorf("sequence %d: empty prompt (it must hold at least BOS)", i)
	}
	if err := checkTurn(len(s.Prompt), s.Response, s.Advantages, s.OldLogProbs, s.RefLogProbs, c); err != nil {
		return fmt.Errorf("sequence %d: %w", i, err)
	}
	for j := range s.Branches {
		br := &s.Branches[j]
		switch {
		case br.Prefix < 1 || br.Prefix > len(s.Prompt):
			return fmt.Errorf("sequence %d, branch %d: prefix %d outside [1, %d] (the sequence's prompt length)", i, j, br.Prefix, len(s.Prompt))
		case len(br.Tail) == 0:
			return fmt.Errorf("sequence %d, branch %d: empty tail (a turn's prompt ends with its own SEP)", i, j)
		}
		if err := checkTurn(br.Prefix+len(br.Tail), br.Response, br.Advantages, br.OldLogProbs, br.RefLogProbs, c); err != nil {
			return fmt.Errorf("sequence %d, branch %d: %w", i, j, err)
		}
		if err := checkTokens(fmt.Sprintf("sequence %d, branch %d: tail", i, j), br.Tail, c.Vocab); err != nil {
			return err
		}
	}
	if n, limit := s.inputs(), MaxPackedLen(c.Context); n > limit {
		return fmt.Errorf("sequence %d: %d packed tokens exceed %d (4 × model.context); pack fewer turns", i, n, limit)
	}
	if err := checkTokens(fmt.Sprintf("sequence %d: prompt", i), s.Prompt, c.Vocab); err != nil {
		return err
	}
	return nil
}

// checkTurn validates one turn: a prompt of promptLen tokens and its
// response with per-token data.
func checkTurn(promptLen int, resp []int, adv, old, ref []float32, c Config) error {
	switch {
	case len(resp) == 0:
		return fmt.Errorf("empty response")
	case promptLen+len(resp)-1 > c.Context:
		return fmt.Errorf("prompt %d + response %d tokens exceed model.context %d + 1; shorten the prompt or the response",
			promptLen, len(resp), c.Context)
	case adv != nil && len(adv) != len(resp):
		return fmt.Errorf("%d advantages for %d response tokens", len(adv), len(resp))
	case old != nil && len(old) != len(resp):
		return fmt.Errorf("%d old log-probs for %d response tokens", len(old), len(resp))
	case ref != nil && len(ref) != len(resp):
		return fmt.Errorf("%d reference log-probs for %d response tokens", len(ref), len(resp))
	}
	if err := checkTokens("response", resp, c.Vocab); err != nil {
		return err
	}
	for _, xs := range [][]float32{adv, old, ref} {
		for _, x := range xs {
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				return fmt.Errorf("non-finite advantage or log-prob %v", x)
			}
		}
	}
	return nil
}

// Tokens returns the response tokens of s in training order, its own
// response's and then each branch's, with each turn's per-token data
// (Advantage 1, OldLogProb and RefLogProb NaN where the turn has none);
// LogProb and Entropy are left for the trainer to fill.
func (s *Sequence) Tokens() []Token {
	out := make([]Token, 0, s.responseTokens())
	turnRows(s, func(resp []int, adv, old, ref []float32, _ int) {
		for i := range resp {
			t := Token{Advantage: 1, OldLogProb: math.NaN(), RefLogProb: math.NaN(), TurnLen: len(resp)}
			if adv != nil {
				t.Advantage = float64(adv[i])
			}
			if old != nil {
				t.OldLogProb = float64(old[i])
			}
			if ref != nil {
				t.RefLogProb = float64(ref[i])
			}
			out = append(out, t)
		}
	})
	return out
}

// turnRows calls f for each turn of s, the sequence itself first: the
// turn's response and per-token data, and the row (relative to the
// sequence's first) that predicts its first response token.
func turnRows(s *Sequence, f func(resp []int, adv, old, ref []float32, firstRow int)) {
	f(s.Response, s.Advantages, s.OldLogProbs, s.RefLogProbs, len(s.Prompt)-1)
	off := len(s.Prompt) + len(s.Response) - 1
	for i := range s.Branches {
		br := &s.Branches[i]
		f(br.Response, br.Advantages, br.OldLogProbs, br.RefLogProbs, off+len(br.Tail)-1)
		off += br.inputs()
	}
}

// responseRows calls f with the graph row of each response token of batch
// (graph length L), sequence by sequence in Tokens order.
func responseRows(batch []Sequence, L int, f func(seq, row int)) {
	for r := range batch {
		turnRows(&batch[r], func(resp []int, _, _, _ []float32, first int) {
			for j := range resp {
				f(r, r*L+first+j)
			}
		})
	}
}

// fillPolicy writes sequences batch (at most gr.b) into the graph's
// embedding, attention mask and loss head, with softmax temperature temp
// (> 0) and objective obj (nil: log-probs only); rows past the batch are
// padding. Loss rows are the positions whose next token is a response
// token.
func fillPolicy[T Float](gr *graph[T], batch []Sequence, temp float64, obj Objective) {
	L, k, m := gr.length, gr.loss, gr.mask
	k.temp, k.obj = temp, obj
	for i := range k.target {
		k.target[i] = -1
		gr.embed.ids[i] = 0
		gr.embed.pos[i] = 0
		m.lo[i], m.hi[i] = 0, 0
	}
	for r := range batch {
		s := &batch[r]
		base := r * L
		np := len(s.Prompt)
		n := np + len(s.Response) - 1 // input tokens of the sequence itself
		for t := 0; t < n; t++ {
			if t < np {
				gr.embed.ids[base+t] = s.Prompt[t]
			} else {
				gr.embed.ids[base+t] = s.Response[t-np]
			}
			gr.embed.pos[base+t] = t
		}
		off := n
		for _, br := range s.Branches {
			nt := len(br.Tail)
			for t := 0; t < br.inputs(); t++ {
				row := base + off + t
				if t < nt {
					gr.embed.ids[row] = br.Tail[t]
				} else {
					gr.embed.ids[row] = br.Response[t-nt]
				}
				gr.embed.pos[row] = br.Prefix + t
				m.lo[row], m.hi[row] = br.Prefix, off // sees Prompt[:Prefix] and its own rows
			}
			off += br.inputs()
		}
		toks, j := s.Tokens(), 0
		turnRows(s, func(resp []int, _, _, _ []float32, first int) {
			for i, tok := range resp {
				k.target[base+first+i], k.tok[base+first+i] = tok, toks[j]
				j++
			}
		})
	}
}

// chunks splits n sequences of graph length L into runs of at most
// maxChunkTokens tokens: [lo, hi) index ranges.
func chunks(n, L int) [][2]int {
	per := max(1, maxChunkTokens/L)
	var out [][2]int
	for lo := 0; lo < n; lo += per {
		out = append(out, [2]int{lo, min(n, lo+per)})
	}
	return out
}
