package envs

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// The text observation wrappers of GEM: the observation after each step
// becomes the episode so far, so that a policy with no memory of its own
// sees the whole game. Both keep the first observation (the instructions
// and the initial state) always, and, when keep > 0, only the last keep
// turns after it; keep = 0 keeps every turn. Dropped turns leave no mark.
//
// Formats (exact; "\n" is one newline, a_i the i-th action verbatim, o_i
// the inner env's observation after it, o_0 the one from Reset):
//
//	ObservationHistory:       o_0 "\n" o_1 "\n" o_2 ... "\n" o_t
//	ActionObservationHistory: o_0 "\n> " a_1 "\n" o_1 "\n> " a_2 "\n" o_2 ... "\n> " a_t "\n" o_t
//
// Reset returns o_0 unchanged. Rewards, flags and Info pass through.

// History modes: what earlier turns a policy sees (env.history in a
// training config), each the name of a wrapper below.
const (
	HistoryNone         = "none"         // the latest observation only: no wrapper
	HistoryObservations = "observations" // ObservationHistory
	HistoryActions      = "actions"      // ActionObservationHistory
)

// WithHistory wraps env in the history wrapper that mode names ("" is
// HistoryNone, which returns env itself), keeping the last keep turns (0:
// all).
func WithHistory(env Env, mode string, keep int) (Env, error) {
	switch mode {
	case "", HistoryNone:
		return env, nil
	case HistoryObservations:
		return NewObservationHistory(env, keep)
	case HistoryActions:
		return NewActionObservationHistory(env, keep)
	}
	return nil, fmt.Errorf("history %s: allowed %s, %s, %s", Excerpt(mode), HistoryNone, HistoryObservations, HistoryActions)
}

// HistoryTurn is one step of an episode as the history formats show it:
// the action and the inner env's observation after it.
type HistoryTurn struct {
	Action, Obs string
}

// RenderHistory writes the observation a history wrapper shows after the
// given turns: first (the Reset observation), then each turn in the format
// above, its action included when withActions (ActionObservationHistory).
// It renders every turn it is given: keeping only the last keep is the
// caller's choice. The wrappers use it, and so does chat.Format, which
// renders a conversation to the text a policy trained behind a wrapper read.
func RenderHistory(first string, turns []HistoryTurn, withActions bool) string {
	n := len(first)
	for _, t := range turns {
		n += 1 + len(t.Obs)
		if withActions {
			n += 3 + len(t.Action)
		}
	}
	var b strings.Builder
	b.Grow(n)
	b.WriteString(first)
	for _, t := range turns {
		if withActions {
			b.WriteString("\n> ")
			b.WriteString(t.Action)
		}
		b.WriteByte('\n')
		b.WriteString(t.Obs)
	}
	return b.String()
}

// history holds the text of an episode and renders it.
type history struct {
	keep        int
	withActions bool
	first       string
	turns       []HistoryTurn
}

func newHistory(keep int, withActions bool) (history, error) {
	if keep < 0 {
		return history{}, fmt.Errorf("history: keep = %d turns: want 0 (all) or more", keep)
	}
	return history{keep: keep, withActions: withActions}, nil
}

func (h *history) reset(obs string) {
	h.first = obs
	clear(h.turns) // let the old strings go
	h.turns = h.turns[:0]
}

func (h *history) add(action, obs string) string {
	if !h.withActions {
		action = ""
	}
	if h.keep > 0 && len(h.turns) == h.keep {
		copy(h.turns, h.turns[1:])
		h.turns = h.turns[:len(h.turns)-1]
	}
	h.turns = append(h.turns, HistoryTurn{Action: action, Obs: obs})
	return h.render()
}

func (h *history) render() string { return RenderHistory(h.first, h.turns, h.withActions) }

// ObservationHistory makes each observation the concatenation of the
// episode's observations so far (see the formats above).
type ObservationHistory struct {
	inner Env
	hist  history
}

var _ Wrapper = (*ObservationHistory)(nil)

// NewObservationHistory wraps env, keeping the first observation and the
// last keep turns (keep = 0: all turns).
func NewObservationHistory(env Env, keep int) (*ObservationHistory, error) {
	h, err := newHistory(keep, false)
	if err != nil {
		return nil, fmt.Errorf("observation history: %w", err)
	}
	return &ObservationHistory{inner: env, hist: h}, nil
}

// Reset starts an episode of the inner env.
func (w *ObservationHistory) Reset(seed uint64) (string, Info, error) {
	obs, info, err := w.inner.Reset(seed)
	if err == nil {
		w.hist.reset(obs)
	}
	return obs, info, err
}

// Step forwards the action and returns the history as the observation.
func (w *ObservationHistory) Step(action string) (Step, error) {
	st, err := w.inner.Step(action)
	if err != nil {
		return st, err
	}
	st.Obs = w.hist.add(action, st.Obs)
	return st, nil
}

// Unwrap returns the inner env.
func (w *ObservationHistory) Unwrap() Env { return w.inner }

// SampleAction forwards to the inner env ("" when it has no sampler).
func (w *ObservationHistory) SampleAction(r *rand.Rand) string { return forwardSample(w.inner, r) }

// Close closes the inner env when it is an io.Closer.
func (w *ObservationHistory) Close() error { return Close(w.inner) }

// FormatErrorReward forwards to the inner env.
func (w *ObservationHistory) FormatErrorReward() float64 { return forwardFormatErrorReward(w.inner) }

// Description forwards to the inner env.
func (w *ObservationHistory) Description() string { return forwardDescription(w.inner) }

// ActionObservationHistory makes each observation the episode so far with
// the agent's actions interleaved (see the formats above). Actions are kept
// verbatim, reasoning and all.
type ActionObservationHistory struct {
	inner Env
	hist  history
}

var _ Wrapper = (*ActionObservationHistory)(nil)

// NewActionObservationHistory wraps env, keeping the first observation and
// the last keep turns (keep = 0: all turns).
func NewActionObservationHistory(env Env, keep int) (*ActionObservationHistory, error) {
	h, err := newHistory(keep, true)
	if err != nil {
		return nil, fmt.Errorf("action-observation history: %w", err)
	}
	return &ActionObservationHistory{inner: env, hist: h}, nil
}

// Reset starts an episode of the inner env.
func (w *ActionObservationHistory) Reset(seed uint64) (string, Info, error) {
	obs, info, err := w.inner.Reset(seed)
	if err == nil {
		w.hist.reset(obs)
	}
	return obs, info, err
}

// Step forwards the action and returns the history as the observation.
func (w *ActionObservationHistory) Step(action string) (Step, error) {
	st, err := w.inner.Step(action)
	if err != nil {
		return st, err
	}
	st.Obs = w.hist.add(action, st.Obs)
	return st, nil
}

// Unwrap returns the inner env.
func (w *ActionObservationHistory) Unwrap() Env { return w.inner }

// SampleAction forwards to the inner env ("" when it has no sampler).
func (w *ActionObservationHistory) SampleAction(r *rand.Rand) string {
	return forwardSample(w.inner, r)
}

// Close closes the inner env when it is an io.Closer.
func (w *ActionObservationHistory) Close() error { return Close(w.inner) }

// FormatErrorReward forwards to the inner env.
func (w *ActionObservationHistory) FormatErrorReward() float64 {
	return forwardFormatErrorReward(w.inner)
}

// Description forwards to the inner env.
func (w *ActionObservationHistory) Description() string { return forwardDescription(w.inner) }
