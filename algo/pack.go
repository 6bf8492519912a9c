package algo

import (
	"slices"

	"github.com/gemgo/gemgo/buffer"
	"github.com/gemgo/gemgo/policy"
)

// Packing (algo.pack): when the policy reads the whole history, each
// turn's prompt is the one before it without its closing SEP, followed by
// the new observation and a SEP, so the turns of an episode re-read the
// same tokens over and over. Packed, the episode trains as one sequence:
// its last turn, with each earlier turn as a policy.Branch that shares the
// prompt up to its own SEP. The policy computes each branch at its own
// positions and behind an attention mask, so every log-prob, loss and
// gradient is that of the turn alone; only the cost changes (about half
// the tokens for GuessTheNumber-hard with the whole history).

// packUnits groups b's transitions into training units: with rows > 0 an
// episode's earlier turns whose prompts, but for their last token, start
// its last turn's prompt join that turn's unit (while the unit stays within
// rows graph rows; rows ≤ 0: no limit); every other transition is a unit
// of its own. A unit lists transition indices in turn order, the last turn
// last.
func packUnits(b *buffer.Buffer, rows int) [][]int {
	var units [][]int
	for _, e := range b.Episodes {
		lastIdx := e.First + e.Turns - 1
		last := &b.Transitions[lastIdx]
		unit := []int{}
		n := len(last.Prompt) + len(last.Response) - 1
		for i := e.First; i < lastIdx; i++ {
			tr := &b.Transitions[i]
			add := 1 + len(tr.Response) - 1
			if !extends(last.Prompt, tr.Prompt) || (rows > 0 && n+add > rows) {
				units = append(units, []int{i})
				continue
			}
			unit = append(unit, i)
			n += add
		}
		units = append(units, append(unit, lastIdx))
	}
	return units
}

// extends reports whether p is the start of long but for p's last token
// (which is then the packed turn's Tail), with at least one token shared.
func extends(long, p []int) bool {
	k := len(p) - 1
	return k >= 1 && k <= len(long) && slices.Equal(long[:k], p[:k])
}

// packedSequence builds the training sequence of one unit: its last
// transition, with the others as branches. ref, when set, holds each
// transition's reference log-probs.
func packedSequence(b *buffer.Buffer, unit []int, ref [][]float32) policy.Sequence {
	seqs := sequences(b, unit)
	if ref != nil {
		for j, i := range unit {
			seqs[j].RefLogProbs = ref[i]
		}
	}
	s := seqs[len(seqs)-1]
	for _, e := range seqs[:len(seqs)-1] {
		k := len(e.Prompt) - 1
		s.Branches = append(s.Branches, policy.Branch{Prefix: k, Tail: e.Prompt[k:], Response: e.Response,
			Advantages: e.Advantages, OldLogProbs: e.OldLogProbs, RefLogProbs: e.RefLogProbs})
	}
	return s
}

// unpack scatters per-sequence values of packed units (the sequence's own
// turn, then its branches: policy.Trainer.Evaluate's order) back to their
// transitions.
func unpack(units [][]int, packed [][]float32, b *buffer.Buffer) [][]float32 {
	out := make([][]float32, b.Len())
	for u, unit := range units {
		vals := packed[u]
		turn := func(i int) {
			n := len(b.Transitions[i].Response)
			out[i], vals = vals[:n:n], vals[n:]
		}
		turn(unit[len(unit)-1])
		for _, i := range unit[:len(unit)-1] {
			turn(i)
		}
	}
	return out
}
