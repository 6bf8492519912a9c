package policy

import (
	"fmt"
	"math"
)

// Sequence is one training example: a prompt and the response the policy
// wrote after it, with per-response-token data.
type Sequence struct {
	Prompt      []int     // BOS ... SEP; carries no loss
	Response    []int     // action tokens ... EOS
	Advantages  []float32 // per response token
	OldLogProbs []float32 // per response token: the sampling policy's (needed by the clipped loss)
	RefLogProbs []float32 // optional: a reference policy's, for the KL penalty
}

// inputs is the number of graph positions s fills: every token but the
// last, which is only a target.
func (s *Sequence) inputs() int { return len(s.Prompt) + len(s.Response) - 1 }

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

// bucketLen is the graph length for sequences of n input tokens.
func bucketLen(n, context int) int {
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

// checkSequence validates one sequence against the model shape; needOld
// requires OldLogProbs.
func checkSequence(i int, s *Sequence, c Config, needOld bool) error {
	switch {
	case len(s.Prompt) == 0:
		return fmt.Errorf("sequence %d: empty prompt (it must hold at least BOS)", i)
	case len(s.Response) == 0:
		return fmt.Errorf("sequence %d: empty response", i)
	case s.inputs() > c.Context:
		return fmt.Errorf("sequence %d: prompt %d + response %d tokens exceed model.context %d + 1; shorten the prompt or the response",
			i, len(s.Prompt), len(s.Response), c.Context)
	case s.Advantages != nil && len(s.Advantages) != len(s.Response):
		return fmt.Errorf("sequence %d: %d advantages for %d response tokens", i, len(s.Advantages), len(s.Response))
	case needOld && len(s.OldLogProbs) != len(s.Response):
		return fmt.Errorf("sequence %d: %d old log-probs for %d response tokens (the clipped loss needs one per token)", i, len(s.OldLogProbs), len(s.Response))
	case s.RefLogProbs != nil && len(s.RefLogProbs) != len(s.Response):
		return fmt.Errorf("sequence %d: %d reference log-probs for %d response tokens", i, len(s.RefLogProbs), len(s.Response))
	}
	for _, toks := range [][]int{s.Prompt, s.Response} {
		for _, t := range toks {
			if t < 0 || t >= c.Vocab {
				return fmt.Errorf("sequence %d: token id %d outside the vocabulary [0, %d)", i, t, c.Vocab)
			}
		}
	}
	for _, xs := range [][]float32{s.Advantages, s.OldLogProbs, s.RefLogProbs} {
		for _, x := range xs {
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				return fmt.Errorf("sequence %d: non-finite advantage or log-prob %v", i, x)
			}
		}
	}
	return nil
}

// aggWeights returns the aggregation weight of each response token of each
// sequence (see Aggregation).
func aggWeights(batch []Sequence, lc LossConfig, context int) [][]float64 {
	tokens := 0
	for _, s := range batch {
		tokens += len(s.Response)
	}
	nseq := float64(len(batch))
	normLen := lc.NormLen
	if normLen == 0 {
		normLen = context
	}
	w := make([][]float64, len(batch))
	for i, s := range batch {
		var x float64
		switch lc.Agg {
		case SeqMeanTokenSum:
			x = 1 / nseq
		case SeqMeanTokenMean:
			x = 1 / (nseq * float64(len(s.Response)))
		case SeqMeanTokenSumNorm:
			x = 1 / (nseq * float64(normLen))
		default:
			x = 1 / float64(tokens)
		}
		w[i] = make([]float64, len(s.Response))
		for j := range w[i] {
			w[i][j] = x
		}
	}
	return w
}

// fillPolicy writes sequences batch (at most gr.b) into the graph's
// embedding and loss data; rows past the batch are padding. Loss rows are
// the positions whose next token is a response token.
func fillPolicy[T Float](gr *graph[T], batch []Sequence, weights [][]float64, lc LossConfig) {
	L, k := gr.length, gr.loss
	k.lc = lc
	k.hasRef = false
	for i := range k.target {
		k.target[i] = -1
		gr.embed.ids[i] = 0
	}
	for r, s := range batch {
		np := len(s.Prompt)
		n := np + len(s.Response) - 1 // input tokens
		for t := 0; t < n; t++ {
			if t < np {
				gr.embed.ids[r*L+t] = s.Prompt[t]
			} else {
				gr.embed.ids[r*L+t] = s.Response[t-np]
			}
		}
		for j, tok := range s.Response {
			row := r*L + np - 1 + j
			k.target[row] = tok
			k.w[row] = weights[r][j]
			k.adv[row] = 1
			if s.Advantages != nil {
				k.adv[row] = float64(s.Advantages[j])
			}
			k.old[row] = math.NaN() // no sampling log-prob: no ratio statistics
			if s.OldLogProbs != nil {
				k.old[row] = float64(s.OldLogProbs[j])
			}
			k.ref[row] = math.NaN() // no reference: no KL term
			if s.RefLogProbs != nil {
				k.ref[row] = float64(s.RefLogProbs[j])
				k.hasRef = true
			}
		}
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
