package envs

import (
	"io"
	"maps"
	"math/rand/v2"
)

// Wrapper is an env that changes one thing about the env it wraps. Every
// wrapper of this package holds its inner env in a named field, forwards
// by hand, and returns the inner env from Unwrap.
//
// Wrappers also forward the optional interfaces of the inner env:
// SampleAction (see SamplerOf), Close (nil when the inner env has no
// Close), FormatErrorReward (RewardFormatError when the inner env does
// not set its own) and Description ("" when the inner env has none).
type Wrapper interface {
	Env
	Unwrap() Env
}

// Unwrapped returns the innermost env under any number of wrappers.
func Unwrapped(env Env) Env {
	for {
		w, ok := env.(Wrapper)
		if !ok {
			return env
		}
		env = w.Unwrap()
	}
}

// SamplerOf returns env as an ActionSampler when env can draw valid
// actions: env implements ActionSampler and, for a wrapper, so does every
// env under it. Use it rather than a type assertion: a wrapper always has a
// SampleAction method, which returns "" when the env under it has none.
func SamplerOf(env Env) (ActionSampler, bool) {
	s, ok := env.(ActionSampler)
	if !ok {
		return nil, false
	}
	if w, isWrapper := env.(Wrapper); isWrapper {
		if _, innerOK := SamplerOf(w.Unwrap()); !innerOK {
			return nil, false
		}
	}
	return s, true
}

// SolverOf returns the solver maker of env: env's own when it has one,
// else the first under its wrappers (outermost first). A wrapper need not
// forward NewSolver: the solver plays the game under it, whose actions
// the wrappers of this package pass through unchanged.
func SolverOf(env Env) (SolverMaker, bool) {
	for {
		if m, ok := env.(SolverMaker); ok {
			return m, true
		}
		w, ok := env.(Wrapper)
		if !ok {
			return nil, false
		}
		env = w.Unwrap()
	}
}

// The forward* helpers implement the optional interfaces of an inner env
// for the wrappers of this package.

func forwardSample(inner Env, r *rand.Rand) string {
	if s, ok := inner.(ActionSampler); ok {
		return s.SampleAction(r)
	}
	return ""
}

// Close closes env when it holds resources (it implements io.Closer: tool
// processes, connections, a wrapped env that does) and is a no-op
// otherwise. Code that makes an env and is done with it calls this.
func Close(env Env) error {
	if c, ok := env.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

func forwardFormatErrorReward(inner Env) float64 {
	if fr, ok := inner.(FormatErrorRewarder); ok {
		return fr.FormatErrorReward()
	}
	return RewardFormatError
}

func forwardDescription(inner Env) string {
	if d, ok := inner.(Describer); ok {
		return d.Description()
	}
	return ""
}

// withInfo returns a copy of info with the pairs kv (key, value, ...) set.
// The inner env's map is never written: it may share it between steps.
func withInfo(info Info, kv ...any) Info {
	out := make(Info, len(info)+len(kv)/2)
	maps.Copy(out, info)
	for i := 0; i+1 < len(kv); i += 2 {
		out[kv[i].(string)] = kv[i+1]
	}
	return out
}
