package buffer

import (
	"fmt"
	"math/rand/v2"
	"sort"
)

// Transition is one env turn: the policy read Prompt and wrote Response.
type Transition struct {
	Prompt   []int     // token ids the policy read (BOS … SEP)
	Response []int     // token ids the policy wrote (… EOS)
	LogProbs []float32 // sampling log-probs of Response, one per token

	Reward     float64 // the env's reward for this turn
	Terminated bool    // the episode ended here by the task's rules
	Truncated  bool    // the episode ended here by a limit (turn limit)
	Value      float64 // the critic's V(s_t) at sampling time (PPO)
	NextValue  float64 // V(s_{t+1}); used only when the episode was truncated here

	Episode int // episode id, unique within the buffer
	Group   int // GRPO group id: episodes reset with the same seed share it
	Turn    int // 0-based turn index within the episode

	// Filled by an algorithm before the update.
	Advantage float64
	Return    float64
}

// Episode summarises one finished episode.
type Episode struct {
	ID      int
	Group   int
	Seed    uint64
	Return  float64 // undiscounted sum of rewards
	Turns   int
	Success bool
	First   int // index of its first transition in Buffer.Transitions
	// ToolCalls is how many of its turns a tool handled (the last step's
	// envs.InfoToolUses; 0 without tools).
	ToolCalls int
}

// Buffer holds the transitions of finished episodes, in episode order.
type Buffer struct {
	Transitions []Transition
	Episodes    []Episode
}

// AddEpisode appends the turns of one finished episode. The turns must be
// in order and the last one must end the episode (Terminated or Truncated).
// It assigns the episode id and each turn's Episode, Group and Turn fields.
func (b *Buffer) AddEpisode(group int, seed uint64, success bool, turns []Transition) (Episode, error) {
	if len(turns) == 0 {
		return Episode{}, fmt.Errorf("buffer: episode with no turns")
	}
	last := turns[len(turns)-1]
	if !last.Terminated && !last.Truncated {
		return Episode{}, fmt.Errorf("buffer: episode's last turn neither terminated nor truncated")
	}
	ep := Episode{ID: len(b.Episodes), Group: group, Seed: seed, Turns: len(turns), Success: success, First: len(b.Transitions)}
	for i, tr := range turns {
		if len(tr.LogProbs) != len(tr.Response) {
			return Episode{}, fmt.Errorf("buffer: turn %d has %d log-probs for %d response tokens", i, len(tr.LogProbs), len(tr.Response))
		}
		if i < len(turns)-1 && (tr.Terminated || tr.Truncated) {
			return Episode{}, fmt.Errorf("buffer: turn %d of %d ends the episode early", i, len(turns))
		}
		tr.Episode, tr.Group, tr.Turn = ep.ID, group, i
		ep.Return += tr.Reward
		b.Transitions = append(b.Transitions, tr)
	}
	b.Episodes = append(b.Episodes, ep)
	return ep, nil
}

// Turns returns the transitions of episode e (a view into the buffer).
func (b *Buffer) Turns(e Episode) []Transition {
	return b.Transitions[e.First : e.First+e.Turns]
}

// Len is the number of transitions.
func (b *Buffer) Len() int { return len(b.Transitions) }

// Clear empties the buffer, keeping its storage.
func (b *Buffer) Clear() {
	clear(b.Transitions)
	b.Transitions = b.Transitions[:0]
	b.Episodes = b.Episodes[:0]
}

// Filter keeps the episodes for which keep is true, with their
// transitions, in order, and drops the others. Kept episodes are
// renumbered (ID, First and their transitions' Episode); group ids stay.
func (b *Buffer) Filter(keep func(Episode) bool) {
	w, n := 0, 0
	for _, e := range b.Episodes {
		if !keep(e) {
			continue
		}
		copy(b.Transitions[w:], b.Transitions[e.First:e.First+e.Turns])
		for i := w; i < w+e.Turns; i++ {
			b.Transitions[i].Episode = n
		}
		e.ID, e.First = n, w
		b.Episodes[n] = e
		w += e.Turns
		n++
	}
	clear(b.Transitions[w:])
	b.Transitions = b.Transitions[:w]
	b.Episodes = b.Episodes[:n]
}

// Stats summarises the episodes in the buffer.
type Stats struct {
	Episodes    int
	Transitions int
	MeanReturn  float64
	SuccessRate float64
	MeanTurns   float64
	// MeanToolCalls is the mean of the episodes' ToolCalls.
	MeanToolCalls float64
}

// Stats returns the mean return, success rate, turns and tool calls of the
// episodes.
func (b *Buffer) Stats() Stats {
	s := Stats{Episodes: len(b.Episodes), Transitions: len(b.Transitions)}
	if s.Episodes == 0 {
		return s
	}
	for _, e := range b.Episodes {
		s.MeanReturn += e.Return
		s.MeanTurns += float64(e.Turns)
		s.MeanToolCalls += float64(e.ToolCalls)
		if e.Success {
			s.SuccessRate++
		}
	}
	n := float64(s.Episodes)
	s.MeanReturn /= n
	s.MeanTurns /= n
	s.MeanToolCalls /= n
	s.SuccessRate /= n
	return s
}

// Merge returns the summary of the episodes of s and o together.
func (s Stats) Merge(o Stats) Stats {
	n := s.Episodes + o.Episodes
	if n == 0 {
		return Stats{Transitions: s.Transitions + o.Transitions}
	}
	mean := func(a, b float64) float64 { return (a*float64(s.Episodes) + b*float64(o.Episodes)) / float64(n) }
	return Stats{Episodes: n, Transitions: s.Transitions + o.Transitions,
		MeanReturn: mean(s.MeanReturn, o.MeanReturn), SuccessRate: mean(s.SuccessRate, o.SuccessRate),
		MeanTurns: mean(s.MeanTurns, o.MeanTurns), MeanToolCalls: mean(s.MeanToolCalls, o.MeanToolCalls)}
}

// Minibatches splits the transitions into minibatches of at most size
// indices, shuffled by rng, with sequences of similar length together: the
// indices are shuffled, sorted by total length (prompt + response) within
// windows of 8 minibatches, cut into minibatches, and the minibatches
// shuffled again. Every index appears exactly once. It is UnitMinibatches
// with every transition a unit of its own.
func (b *Buffer) Minibatches(size int, rng *rand.Rand) [][]int {
	unitBatches := b.UnitMinibatches(b.SingleUnits(), size, rng)
	batches := make([][]int, len(unitBatches))
	for k, mb := range unitBatches {
		batches[k] = make([]int, len(mb))
		for j, u := range mb {
			batches[k][j] = u[0]
		}
	}
	return batches
}

// SingleUnits lists every transition as a training unit of its own, in
// order: [[0] [1] … [Len()−1]].
func (b *Buffer) SingleUnits() [][]int {
	units := make([][]int, len(b.Transitions))
	for i := range units {
		units[i] = []int{i}
	}
	return units
}

// UnitMinibatches shuffles units (each a list of transition indices
// trained together, such as a packed episode) into minibatches of at
// least size transitions (the last may hold fewer), with units of similar
// total length together: the units are shuffled, sorted by the summed
// length (prompt + response) of their transitions within windows of about
// 8·size transitions, cut into minibatches, and the minibatches shuffled
// again. Every unit appears exactly once.
func (b *Buffer) UnitMinibatches(units [][]int, size int, rng *rand.Rand) [][][]int {
	size = max(size, 1)
	length := func(u int) int {
		n := 0
		for _, i := range units[u] {
			n += b.seqLen(i)
		}
		return n
	}
	order := rng.Perm(len(units))
	for lo := 0; lo < len(order); {
		hi, count := lo, 0
		for hi < len(order) && count < 8*size {
			count += len(units[order[hi]])
			hi++
		}
		part := order[lo:hi]
		sort.SliceStable(part, func(i, j int) bool { return length(part[i]) < length(part[j]) })
		lo = hi
	}
	var batches [][][]int
	var cur [][]int
	count := 0
	for _, u := range order {
		cur = append(cur, units[u])
		if count += len(units[u]); count >= size {
			batches, cur, count = append(batches, cur), nil, 0
		}
	}
	if len(cur) > 0 {
		batches = append(batches, cur)
	}
	rng.Shuffle(len(batches), func(i, j int) { batches[i], batches[j] = batches[j], batches[i] })
	return batches
}

func (b *Buffer) seqLen(i int) int {
	return len(b.Transitions[i].Prompt) + len(b.Transitions[i].Response)
}
