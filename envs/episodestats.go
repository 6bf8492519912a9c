package envs

import (
	"fmt"
	"math/rand/v2"
)

// Info keys set by EpisodeStats (and so by VectorEnv) on the step that ends
// an episode.
const (
	// InfoEpisodeReturn (float64) is the sum of the episode's rewards.
	InfoEpisodeReturn = "episode_return"
	// InfoEpisodeTurns (int) is the number of steps of the episode.
	InfoEpisodeTurns = "episode_turns"
	// InfoEpisodeSuccess (bool) is the inner env's Info[InfoSuccess]
	// on the last step (false when absent).
	InfoEpisodeSuccess = "episode_success"
)

// EpisodeSummary is what EpisodeStats reports about a finished episode.
type EpisodeSummary struct {
	Return  float64
	Turns   int
	Success bool
}

// SummaryOf reads the episode statistics from the Info of the step that
// ended an episode; ok is false when info has none.
func SummaryOf(info Info) (s EpisodeSummary, ok bool) {
	ret, ok1 := info[InfoEpisodeReturn].(float64)
	turns, ok2 := info[InfoEpisodeTurns].(int)
	success, ok3 := info[InfoEpisodeSuccess].(bool)
	if !ok1 || !ok2 || !ok3 {
		return EpisodeSummary{}, false
	}
	return EpisodeSummary{Return: ret, Turns: turns, Success: success}, true
}

// EpisodeStats adds the episode's return, turns and success to the Info of
// the step that ends it, under InfoEpisodeReturn, InfoEpisodeTurns and
// InfoEpisodeSuccess; the other steps pass through unchanged.
type EpisodeStats struct {
	inner  Env
	ret    float64
	turns  int
	active bool
}

var _ Wrapper = (*EpisodeStats)(nil)

// NewEpisodeStats wraps env.
func NewEpisodeStats(env Env) *EpisodeStats { return &EpisodeStats{inner: env} }

// Reset starts an episode of the inner env.
func (w *EpisodeStats) Reset(seed uint64) (string, Info, error) {
	obs, info, err := w.inner.Reset(seed)
	if err != nil {
		return obs, info, err
	}
	w.ret, w.turns, w.active = 0, 0, true
	return obs, info, nil
}

// Step forwards the action and adds the statistics when the episode ends.
func (w *EpisodeStats) Step(action string) (Step, error) {
	if !w.active {
		return Step{}, fmt.Errorf("episode stats: %w", ErrNotReset)
	}
	st, err := w.inner.Step(action)
	if err != nil {
		return st, err
	}
	w.ret += st.Reward
	w.turns++
	if st.Done() {
		w.active = false
		success, _ := st.Info[InfoSuccess].(bool)
		st.Info = withInfo(st.Info,
			InfoEpisodeReturn, w.ret,
			InfoEpisodeTurns, w.turns,
			InfoEpisodeSuccess, success)
	}
	return st, nil
}

// Unwrap returns the inner env.
func (w *EpisodeStats) Unwrap() Env { return w.inner }

// SampleAction forwards to the inner env ("" when it has no sampler).
func (w *EpisodeStats) SampleAction(r *rand.Rand) string { return forwardSample(w.inner, r) }

// Close closes the inner env when it is an io.Closer.
func (w *EpisodeStats) Close() error { return Close(w.inner) }

// FormatErrorReward forwards to the inner env.
func (w *EpisodeStats) FormatErrorReward() float64 { return forwardFormatErrorReward(w.inner) }

// Description forwards to the inner env.
func (w *EpisodeStats) Description() string { return forwardDescription(w.inner) }
