package envs

import (
	"fmt"
	"math/rand/v2"
)

// TimeLimit ends every episode of the env it wraps after at most MaxTurns
// steps: the step that reaches the limit without the task ending is
// Truncated (never Terminated). Reset reports the tighter of the two turn
// limits in Info[InfoMaxTurns].
type TimeLimit struct {
	inner    Env
	maxTurns int
	turns    int
	active   bool
}

var _ Wrapper = (*TimeLimit)(nil)

// NewTimeLimit wraps env with a limit of maxTurns steps per episode.
func NewTimeLimit(env Env, maxTurns int) (*TimeLimit, error) {
	if env == nil {
		return nil, fmt.Errorf("time limit: nil env")
	}
	if maxTurns < 1 {
		return nil, fmt.Errorf("time limit: max turns = %d: want at least 1", maxTurns)
	}
	return &TimeLimit{inner: env, maxTurns: maxTurns}, nil
}

// MaxTurns returns the limit.
func (w *TimeLimit) MaxTurns() int { return w.maxTurns }

// Reset starts an episode of the inner env.
func (w *TimeLimit) Reset(seed uint64) (string, Info, error) {
	obs, info, err := w.inner.Reset(seed)
	if err != nil {
		return obs, info, err
	}
	w.turns, w.active = 0, true
	limit := w.maxTurns
	if n, ok := info[InfoMaxTurns].(int); ok && n > 0 && n < limit {
		limit = n
	}
	return obs, withInfo(info, InfoMaxTurns, limit), nil
}

// Step forwards the action and truncates the episode at the limit.
func (w *TimeLimit) Step(action string) (Step, error) {
	if !w.active {
		return Step{}, fmt.Errorf("time limit: %w", ErrNotReset)
	}
	st, err := w.inner.Step(action)
	if err != nil {
		return st, err
	}
	w.turns++
	if !st.Done() && w.turns >= w.maxTurns {
		st.Truncated = true
	}
	if st.Done() {
		w.active = false
	}
	return st, nil
}

// Unwrap returns the inner env.
func (w *TimeLimit) Unwrap() Env { return w.inner }

// SampleAction forwards to the inner env ("" when it has no sampler).
func (w *TimeLimit) SampleAction(r *rand.Rand) string { return forwardSample(w.inner, r) }

// Close closes the inner env when it is an io.Closer.
func (w *TimeLimit) Close() error { return Close(w.inner) }

// FormatErrorReward forwards to the inner env.
func (w *TimeLimit) FormatErrorReward() float64 { return forwardFormatErrorReward(w.inner) }

// Description forwards to the inner env.
func (w *TimeLimit) Description() string { return forwardDescription(w.inner) }
