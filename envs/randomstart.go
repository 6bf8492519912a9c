package envs

import (
	"fmt"
	"math/rand/v2"
)

// RandomStart begins some episodes part-way through, at a state random play
// leads to: Sutton and Barto's exploring starts. With probability prob,
// Reset plays 1 to maxTurns actions drawn from the inner env's
// SampleAction (fewer when the env's turn limit leaves less room: the agent
// keeps at least one turn) and returns the observation after them, as if
// the agent had played them. Their rewards are dropped: the agent's return
// counts from its first own step, and so do Info[InfoTurn] (the agent's
// turns) and Info[InfoMaxTurns] (the turns left to it); Reset's
// Info[InfoRandomStart] is the turns played for it (0 when the episode
// starts at the beginning).
//
// A learner that only ever starts at the beginning rarely visits the
// states deep in a game that its own confident early moves steer around;
// starting some episodes there gives those states a gradient. Wrap the
// training env only: an evaluation that starts part-way measures another
// task. Put it outside a history wrapper, so the agent's first
// observation shows the turns played for it.
//
// The random actions come from an RNG seeded by Reset's seed, so an
// episode stays a pure function of the seed and the agent's actions. When
// a random action ends the episode (a lucky guess), Reset plays the episode
// again from the seed with the random actions before that one: the agent
// always gets a live state.
type RandomStart struct {
	inner    Env
	sampler  ActionSampler
	prob     float64
	maxTurns int
	played   int // random turns of the current episode
}

// InfoRandomStart (int) is the number of turns RandomStart played before
// the agent's first (0: the episode starts at the beginning).
const InfoRandomStart = "random_start"

// randomStartStream is the second PCG word of RandomStart's RNG, so that
// its draws differ from those of an env that seeds a PCG with the seed
// alone.
const randomStartStream = 0x72616e645f737461

var _ Wrapper = (*RandomStart)(nil)

// NewRandomStart wraps env: each episode starts after 1..maxTurns random
// actions with probability prob. env must draw random actions
// (ActionSampler, through every wrapper under it).
func NewRandomStart(env Env, prob float64, maxTurns int) (*RandomStart, error) {
	if env == nil {
		return nil, fmt.Errorf("random start: nil env")
	}
	if !(prob >= 0 && prob <= 1) {
		return nil, fmt.Errorf("random start: probability %v: allowed [0, 1]", prob)
	}
	if maxTurns < 1 {
		return nil, fmt.Errorf("random start: max turns = %d: want at least 1", maxTurns)
	}
	s, ok := SamplerOf(env)
	if !ok {
		return nil, fmt.Errorf("random start: the env has no SampleAction (ActionSampler), so it cannot play random turns")
	}
	return &RandomStart{inner: env, sampler: s, prob: prob, maxTurns: maxTurns}, nil
}

// Reset starts an episode of the inner env and, with the wrapper's
// probability, plays random turns into it.
func (w *RandomStart) Reset(seed uint64) (string, Info, error) {
	w.played = 0
	obs, info, err := w.inner.Reset(seed)
	if err != nil {
		return obs, info, err
	}
	rng := rand.New(rand.NewPCG(seed, randomStartStream))
	if rng.Float64() >= w.prob {
		return obs, withInfo(info, InfoRandomStart, 0), nil
	}
	k := 1 + rng.IntN(w.maxTurns)
	limit, _ := info[InfoMaxTurns].(int) // 0 when the env reports none
	if limit > 0 {
		k = min(k, limit-1)
	}
	var played []string
	for len(played) < k {
		a := w.sampler.SampleAction(rng)
		st, err := w.inner.Step(a)
		if err != nil {
			return "", nil, fmt.Errorf("random start: turn %d of seed %d: %w", len(played)+1, seed, err)
		}
		if st.Done() {
			// The random action ended the episode: play it again without it.
			return w.replay(seed, played, limit)
		}
		played = append(played, a)
		obs = st.Obs
	}
	return obs, w.startInfo(info, len(played), limit), nil
}

// replay resets the inner env with seed and plays actions: the state
// before a random action that ended the episode.
func (w *RandomStart) replay(seed uint64, actions []string, limit int) (string, Info, error) {
	obs, info, err := w.inner.Reset(seed)
	if err != nil {
		return obs, info, err
	}
	for i, a := range actions {
		st, err := w.inner.Step(a)
		if err != nil {
			return "", nil, fmt.Errorf("random start: replaying turn %d of seed %d: %w", i+1, seed, err)
		}
		if st.Done() {
			return "", nil, fmt.Errorf("random start: replaying seed %d ended at turn %d where the first play went on: the env is not a pure function of its seed and actions", seed, i+1)
		}
		obs = st.Obs
	}
	return obs, w.startInfo(info, len(actions), limit), nil
}

// startInfo is the Reset info after played random turns of an episode
// whose turn limit is limit (0: none reported).
func (w *RandomStart) startInfo(info Info, played, limit int) Info {
	w.played = played
	if limit > 0 {
		return withInfo(info, InfoRandomStart, played, InfoMaxTurns, limit-played)
	}
	return withInfo(info, InfoRandomStart, played)
}

// Step forwards the agent's action; Info[InfoTurn] counts the agent's
// turns only.
func (w *RandomStart) Step(action string) (Step, error) {
	st, err := w.inner.Step(action)
	if err != nil || w.played == 0 {
		return st, err
	}
	if n, ok := st.Info[InfoTurn].(int); ok {
		st.Info = withInfo(st.Info, InfoTurn, n-w.played)
	}
	return st, nil
}

// Unwrap returns the inner env.
func (w *RandomStart) Unwrap() Env { return w.inner }

// SampleAction forwards to the inner env.
func (w *RandomStart) SampleAction(r *rand.Rand) string { return forwardSample(w.inner, r) }

// Close closes the inner env when it is an io.Closer.
func (w *RandomStart) Close() error { return Close(w.inner) }

// FormatErrorReward forwards to the inner env.
func (w *RandomStart) FormatErrorReward() float64 { return forwardFormatErrorReward(w.inner) }

// Description forwards to the inner env.
func (w *RandomStart) Description() string { return forwardDescription(w.inner) }
